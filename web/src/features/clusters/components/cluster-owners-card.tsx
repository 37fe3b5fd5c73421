import type { ClusterDetail } from '@artemis-studio/contracts';
import { Card, Stack, Table, Text } from '@mantine/core';
import { formatInstant } from '../../../lib/ui/format';

const ROLES = [
  { service: 'scraper', does: 'Polls the brokers and serves the actions' },
  { service: 'notifier', does: 'Subscribes to the notifications' },
] as const;

/**
 * Which replica of each service holds this cluster (issue 32): when several run, each cluster
 * goes to one, and the fleet is spread over them. A row without one says how soon one takes it.
 */
export function ClusterOwnersCard({ owners }: { owners: ClusterDetail['owners'] }) {
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Stack gap={2}>
          <Text fw={600}>Owned by</Text>
          <Text size="sm" c="dimmed">
            The replica of each service that serves this cluster now. Clusters are spread over the running
            replicas by size; one that stops hands its clusters to the others.
          </Text>
        </Stack>
        <Table aria-label="Replicas owning this cluster">
          <Table.Tbody>
            {ROLES.map(({ service, does }) => {
              const owner = owners[service];
              return (
                <Table.Tr key={service} data-testid={`owner-${service}`}>
                  <Table.Td fw={600}>{service}</Table.Td>
                  <Table.Td>{does}</Table.Td>
                  <Table.Td>
                    {owner ? (
                      <>
                        <Text span ff="monospace" size="sm">
                          {owner.replica}
                        </Text>{' '}
                        <Text span size="sm" c="dimmed">
                          since {formatInstant(owner.since)}
                        </Text>
                      </>
                    ) : (
                      <Text span size="sm" c="orange">
                        No replica holds it now: the next to renew its leases takes it (within a lease TTL).
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
