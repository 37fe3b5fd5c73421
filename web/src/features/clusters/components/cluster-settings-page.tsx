import { Alert, Card, Group, Stack, Switch, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useAbilities } from '../../../lib/access/me';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { QueryState } from '../../../lib/ui/query-state';
import { useRemoveCluster, useUpdateCluster } from '../api/change-cluster';
import { useCluster } from '../../../lib/clusters/get-cluster';
import { ClusterForm } from './cluster-form';
import { confirmRemoveCluster } from './remove-cluster';
import { MessageAccessCard } from './message-access-card';
import { ClusterOwnersCard } from './cluster-owners-card';
import { ProtectionsCard } from './protections-card';

const route = getRouteApi('/clusters/$clusterId');

/** The cluster's registration: edit it, or remove the cluster. */
export function ClusterSettingsPage() {
  const { clusterId } = route.useParams();
  const cluster = useCluster(clusterId);
  const update = useUpdateCluster(clusterId);
  const remove = useRemoveCluster();
  const navigate = useNavigate();
  const can = useAbilities();
  return (
    <Stack maw={960}>
      <Title order={2}>Cluster settings</Title>
      <QueryState query={cluster} what="cluster">
        {(data) => (
          <Stack>
            {can.refusal(data.name, 'admin') && (
              <Alert color="gray" role="status" title="Read-only">
                Changing or removing this cluster {can.refusal(data.name, 'admin')}.
              </Alert>
            )}
            <Card withBorder>
              <ClusterForm
                readOnly={can.refusal(data.name, 'admin') !== null}
                key={data.updatedAt}
                existing={data}
                submitLabel="Save changes"
                onSubmit={async (request) => {
                  await update.mutateAsync(request);
                  notifications.show({ message: 'Saved.' });
                }}
              />
            </Card>
            <SwitchCard
              title="Read-only mode"
              description="Refuse every action on this cluster's brokers (pause, purge, delete…); reading stays."
              checked={data.readOnly}
              refusal={can.refusal(data.name, 'admin')}
              pending={update.isPending}
              onChange={(readOnly) =>
                update.mutateAsync({ readOnly }).then((c) =>
                  notifications.show({
                    message: c.readOnly
                      ? 'Actions on this cluster are now refused.'
                      : 'Actions are allowed again.',
                  }),
                )
              }
            />
            <SwitchCard
              title="Durable notifications"
              description="Keep a bounded ring of notifications on each live broker (one queue of Studio's, at most artemis-studio.notifications.ring-size of them), so a notifier restart loses nothing. Off: nothing of Studio's stays on the brokers, and a restart leaves a stated gap."
              checked={data.notificationRing}
              refusal={can.refusal(data.name, 'admin')}
              pending={update.isPending}
              onChange={(notificationRing) =>
                update.mutateAsync({ notificationRing }).then((c) =>
                  notifications.show({
                    message: c.notificationRing
                      ? 'Studio makes its ring on each live broker within a poll or two.'
                      : "Studio's rings are removed once the notifier has moved off them.",
                  }),
                )
              }
            />
            <MessageAccessCard
              key={`access-${data.updatedAt}`}
              cluster={data}
              refusal={can.refusal(data.name, 'admin')}
              save={(request) => update.mutateAsync(request)}
            />
            <ProtectionsCard clusterId={clusterId} refusal={can.refusal(data.name, 'admin')} />
            <ClusterOwnersCard owners={data.owners} />
            <Card withBorder>
              <Group justify="space-between">
                <Stack gap={2}>
                  <Text fw={600}>Remove this cluster</Text>
                  <Text size="sm" c="dimmed">
                    Studio forgets it; the brokers are not touched.
                  </Text>
                </Stack>
                <RefusableButton
                  refusal={can.refusal(data.name, 'admin')}
                  color="red"
                  variant="light"
                  onClick={() =>
                    confirmRemoveCluster(data, remove.mutateAsync, () => void navigate({ to: '/clusters' }))
                  }
                >
                  Remove cluster
                </RefusableButton>
              </Group>
            </Card>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}

/** One on/off choice of the registration, refused with the reason to whoever may not make it. */
function SwitchCard(props: {
  title: string;
  description: string;
  checked: boolean;
  refusal: string | null;
  pending: boolean;
  onChange(checked: boolean): Promise<unknown>;
}) {
  return (
    <Card withBorder>
      <Group justify="space-between" wrap="nowrap">
        <Stack gap={2}>
          <Text fw={600}>{props.title}</Text>
          <Text size="sm" c="dimmed">
            {props.description}
          </Text>
        </Stack>
        <Tooltip label={props.refusal} disabled={!props.refusal}>
          <Switch
            aria-label={props.title}
            checked={props.checked}
            disabled={props.refusal !== null || props.pending}
            onChange={(e) => void props.onChange(e.currentTarget.checked)}
          />
        </Tooltip>
      </Group>
    </Card>
  );
}
