import type { BrokerConnection, ClusterLinks } from '@artemis-studio/contracts';
import { Anchor, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { formatInstant, formatNumber } from '../../../lib/ui/format';
import { TableHead } from '../../../lib/ui/table-head';
import { LinkStateCell, shortId, type LinkState } from './link-cells';

function stateOf(c: BrokerConnection): LinkState {
  if (c.direction === 'incoming') return { label: 'attached', color: 'teal' };
  if (!c.started) return { label: 'stopped', color: 'red' };
  return c.connected ? { label: 'connected', color: 'teal' } : { label: 'retrying', color: 'orange' };
}

/**
 * Each node's AMQP broker connections: its own, and its peers' attached to it, with what their
 * federation moved and what their mirror has yet to send (its queue's page charts it).
 */
export function BrokerConnectionsTable({ clusterId, links }: { clusterId: string; links: ClusterLinks }) {
  // A peer by its broker node id, named as registered where a cluster connection knows it.
  const registered = new Map(
    links.connections.flatMap((c) => c.members.map((m) => [m.brokerNodeId, m.registeredAs] as const)),
  );
  const peerOf = (id: string) => registered.get(id) ?? shortId(id);
  return (
    <Stack gap="xs">
      <Title order={5}>Broker connections</Title>
      <Table verticalSpacing="xs" aria-label="Broker connections">
        <TableHead columns={['Node', 'Connection', 'State', 'Federation', 'Mirror backlog']} />
        <Table.Tbody>
          {links.brokerConnections.map((c) => {
            const state = stateOf(c);
            return (
              <Table.Tr key={`${c.node}/${c.direction}/${c.peerBrokerNodeId ?? ''}/${c.name}`}>
                <Table.Td fw={600}>{c.node}</Table.Td>
                <Table.Td>
                  {c.name}
                  {c.peerBrokerNodeId !== null && (
                    <Text span size="sm" c="dimmed" title={c.peerBrokerNodeId}>
                      {' '}
                      from {peerOf(c.peerBrokerNodeId)}
                    </Text>
                  )}
                </Table.Td>
                <LinkStateCell state={state} />
                <Table.Td>
                  {c.federation
                    ? `${formatNumber(c.federation.messagesReceived)} received · ${formatNumber(c.federation.messagesSent)} sent`
                    : '—'}
                </Table.Td>
                <Table.Td>
                  {c.mirror ? (
                    <Anchor
                      component={Link}
                      to={`/clusters/${clusterId}/queues/${encodeURIComponent(c.mirror.queue)}`}
                      title={
                        c.mirror.oldestMessageAt
                          ? `oldest ${formatInstant(c.mirror.oldestMessageAt)}`
                          : undefined
                      }
                    >
                      {formatNumber(c.mirror.messages)}
                    </Anchor>
                  ) : (
                    '—'
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
