import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { QueryState } from '../../../lib/ui/query-state';
import { useRemoveCluster, useUpdateCluster } from '../api/change-cluster';
import { useCluster } from '../api/get-cluster';
import { ClusterForm } from './cluster-form';
import { confirmRemoveCluster } from './remove-cluster';

const route = getRouteApi('/clusters/$clusterId');

/** The cluster's registration: edit it, or remove the cluster. */
export function ClusterSettingsPage() {
  const { clusterId } = route.useParams();
  const cluster = useCluster(clusterId);
  const update = useUpdateCluster(clusterId);
  const remove = useRemoveCluster();
  const navigate = useNavigate();
  return (
    <Stack maw={960}>
      <Title order={2}>Cluster settings</Title>
      <QueryState query={cluster} what="cluster">
        {(data) => (
          <Stack>
            <Card withBorder>
              <ClusterForm
                key={data.updatedAt}
                existing={data}
                submitLabel="Save changes"
                onSubmit={async (request) => {
                  await update.mutateAsync(request);
                  notifications.show({ message: 'Saved.' });
                }}
              />
            </Card>
            <Card withBorder>
              <Group justify="space-between">
                <Stack gap={2}>
                  <Text fw={600}>Remove this cluster</Text>
                  <Text size="sm" c="dimmed">
                    Studio forgets it; the brokers are not touched.
                  </Text>
                </Stack>
                <Button
                  color="red"
                  variant="light"
                  onClick={() =>
                    confirmRemoveCluster(data, remove.mutateAsync, () => void navigate({ to: '/clusters' }))
                  }
                >
                  Remove cluster
                </Button>
              </Group>
            </Card>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
