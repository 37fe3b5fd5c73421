import type { ClusterSummary, CreateClusterRequest } from '@artemis-studio/contracts';
import { Anchor, Button, Card, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { useAbilities } from '../../../lib/access/me';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { QueryState } from '../../../lib/ui/query-state';
import { HealthBadge, VerdictBadge } from '../../../lib/ui/status-badges';
import { useRegisterCluster, useRemoveCluster } from '../api/change-cluster';
import { useCluster } from '../../../lib/clusters/get-cluster';
import { useClusters } from '../../../lib/clusters/get-clusters';
import { useTopology } from '../api/get-topology';
import { ClusterForm } from './cluster-form';
import { SuggestedRulesChoice } from './suggested-rules-choice';
import { confirmRemoveCluster } from './remove-cluster';
import { TableHead } from '../../../lib/ui/table-head';

function ClusterRow({ cluster }: { cluster: ClusterSummary }) {
  const topology = useTopology(cluster.id);
  const detail = useCluster(cluster.id);
  const remove = useRemoveCluster();
  const refusal = useAbilities().refusal(cluster.name, 'admin');
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/clusters/${cluster.id}`} fw={600}>
          {cluster.name}
        </Anchor>
      </Table.Td>
      <Table.Td>{cluster.nodes.length}</Table.Td>
      <Table.Td>
        {topology.data ? <HealthBadge health={topology.data.health} /> : <Text c="dimmed">…</Text>}
      </Table.Td>
      <Table.Td>
        {detail.data ? (
          <VerdictBadge status={detail.data.capabilities.notifications.status} />
        ) : (
          <Text c="dimmed">…</Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" justify="flex-end">
          <Button component={Link} to={`/clusters/${cluster.id}/settings`} variant="subtle" size="xs">
            {refusal ? 'Registration' : 'Edit'}
          </Button>
          <RefusableButton
            refusal={refusal}
            variant="subtle"
            color="red"
            size="xs"
            onClick={() => confirmRemoveCluster(cluster, remove.mutateAsync)}
          >
            Remove
          </RefusableButton>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

const REGISTER_REFUSAL = 'needs the admin role on some clusters; ask an administrator';

function EmptyState({ onRegister }: { onRegister: () => void }) {
  const can = useAbilities();
  return (
    <Card withBorder padding="xl" maw={640}>
      <Stack>
        <Title order={3}>No cluster yet</Title>
        <Text>
          Register a cluster to watch it: give each broker node's Jolokia URL (the web console's{' '}
          <code>/console/jolokia</code>) and a user in the console role. Add an AMQP URL to receive the
          broker's management notifications live.
        </Text>
        <Group>
          <RefusableButton refusal={can.register ? null : REGISTER_REFUSAL} onClick={onRegister}>
            Register a cluster
          </RefusableButton>
        </Group>
      </Stack>
    </Card>
  );
}

export function ClustersPage() {
  const clusters = useClusters();
  const register = useRegisterCluster();
  const navigate = useNavigate();
  const [opened, { open, close }] = useDisclosure(false);
  const [rules, setRules] = useState<string[]>([]);
  const can = useAbilities();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Clusters</Title>
        <RefusableButton refusal={can.register ? null : REGISTER_REFUSAL} onClick={open}>
          Register a cluster
        </RefusableButton>
      </Group>
      <QueryState query={clusters} what="clusters">
        {(list) =>
          list.length === 0 ? (
            <EmptyState onRegister={open} />
          ) : (
            <Table highlightOnHover verticalSpacing="sm" aria-label="Clusters">
              <TableHead columns={['Name', 'Nodes', 'Health', 'Notifications', '']} />
              <Table.Tbody>
                {list.map((cluster) => (
                  <ClusterRow key={cluster.id} cluster={cluster} />
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryState>
      <Modal opened={opened} onClose={close} title="Register a cluster" size="xl">
        <ClusterForm
          submitLabel="Register"
          extra={<SuggestedRulesChoice chosen={rules} onChange={setRules} />}
          onSubmit={async (request) => {
            const { cluster, rulesFailure } = await register.mutateAsync({
              request: request as CreateClusterRequest,
              rules,
            });
            if (rulesFailure)
              notifications.show({
                color: 'red',
                title: 'Registered, but its alert rules were not saved',
                message: `${rulesFailure}. Save them on the cluster's Alerting screen.`,
              });
            close();
            setRules([]);
            await navigate({ to: '/clusters/$clusterId', params: { clusterId: cluster.id } });
          }}
        />
      </Modal>
    </Stack>
  );
}
