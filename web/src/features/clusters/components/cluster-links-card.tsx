import type {
  ClusterConnection,
  ClusterLinks,
  CoreBridge,
  StrandedMessages,
} from '@artemis-studio/contracts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { formatInstant, formatNumber } from '../../../lib/ui/format';
import { TableHead } from '../../../lib/ui/table-head';
import { LinkStateCell, shortId, type LinkState } from './link-cells';
import { BrokerConnectionsTable } from './broker-connections-table';
import { STRANDED_WHY } from '../../../lib/queues/stranded-text';

/** The store-and-forward queue a node's connection keeps towards a member: the link's backlog, charted as a queue. */
const linkQueue = (connection: ClusterConnection, brokerNodeId: string) =>
  `$.artemis.internal.sf.${connection.name}.${brokerNodeId}`;

function MembersCell({ clusterId, connection }: { clusterId: string; connection: ClusterConnection }) {
  return (
    <Stack gap={2}>
      {connection.members.map((m) => (
        <Text key={m.brokerNodeId} size="sm" title={m.brokerNodeId}>
          {m.registeredAs ?? (
            <Text span c="orange" fw={600} size="sm">
              not registered
            </Text>
          )}{' '}
          · {shortId(m.brokerNodeId)} · live {m.live ?? '—'}
          {m.backup ? `, backup ${m.backup}` : ', no backup'}
          {m.brokerNodeId !== connection.brokerNodeId && (
            <>
              {' · '}
              <Anchor
                component={Link}
                size="sm"
                to={`/clusters/${clusterId}/queues/${encodeURIComponent(linkQueue(connection, m.brokerNodeId))}`}
              >
                link backlog
              </Anchor>
            </>
          )}
        </Text>
      ))}
    </Stack>
  );
}

function ConnectionsTable({ clusterId, links }: { clusterId: string; links: ClusterLinks }) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table verticalSpacing="xs" aria-label="Cluster connections">
        <TableHead
          columns={[
            'Node',
            'Connection',
            'State',
            'Max hops',
            'Members as this node sees them',
            'Pending ack',
          ]}
        />
        <Table.Tbody>
          {links.connections.map((c) => (
            <Table.Tr key={`${c.node}/${c.name}`}>
              <Table.Td fw={600}>{c.node}</Table.Td>
              <Table.Td>
                {c.name}
                <Text size="xs" c="dimmed">
                  {c.loadBalancing ?? ''}
                </Text>
              </Table.Td>
              <Table.Td>
                <Badge color={c.started ? 'teal' : 'red'} variant="light">
                  {c.started ? 'started' : 'stopped'}
                </Badge>
              </Table.Td>
              <Table.Td c={c.maxHops === 0 ? 'red' : undefined}>{c.maxHops}</Table.Td>
              <Table.Td>
                <MembersCell clusterId={clusterId} connection={c} />
              </Table.Td>
              <Table.Td>
                {c.messagesPendingAcknowledgement === null
                  ? '—'
                  : formatNumber(c.messagesPendingAcknowledgement)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A bridge's state: stopped, started but retrying (not consuming its queue), or forwarding. */
function bridgeState(b: CoreBridge): LinkState {
  if (!b.started) return { label: 'stopped', color: 'red' };
  return b.connected ? { label: 'forwarding', color: 'teal' } : { label: 'retrying', color: 'orange' };
}

function BridgesTable({ bridges }: { bridges: CoreBridge[] }) {
  return (
    <Stack gap="xs">
      <Title order={5}>Core bridges</Title>
      <Table verticalSpacing="xs" aria-label="Core bridges">
        <TableHead columns={['Node', 'Bridge', 'From queue', 'To address', 'State', 'Acknowledged']} />
        <Table.Tbody>
          {bridges.map((b) => {
            const state = bridgeState(b);
            return (
              <Table.Tr key={`${b.node}/${b.name}`}>
                <Table.Td fw={600}>{b.node}</Table.Td>
                <Table.Td>{b.name}</Table.Td>
                <Table.Td>{b.queueName}</Table.Td>
                <Table.Td>{b.forwardingAddress ?? '—'}</Table.Td>
                <LinkStateCell state={state} />
                <Table.Td>
                  {b.messagesAcknowledged === null ? '—' : formatNumber(b.messagesAcknowledged)}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function StrandedTable({ clusterId, stranded }: { clusterId: string; stranded: StrandedMessages[] }) {
  // One snippet per address: several queues of one address are fixed by one setting.
  const suggestions = [
    ...new Map(stranded.filter((s) => s.suggestion).map((s) => [s.address, s.suggestion!])),
  ];
  return (
    <Stack gap="xs">
      <Title order={5}>Stranded messages</Title>
      <Text size="sm" c="dimmed">
        Messages waiting on a node where their queue has no consumer, while it has consumers on another node.
        Each queue's page offers to move them to the consumers.
      </Text>
      <Table verticalSpacing="xs" aria-label="Stranded messages">
        <TableHead columns={['Queue', 'On node', 'Messages', 'Consumers on', 'Why they stay', 'Since']} />
        <Table.Tbody>
          {stranded.map((s) => (
            <Table.Tr key={`${s.queue}/${s.node}`}>
              <Table.Td fw={600}>
                <Anchor component={Link} to={`/clusters/${clusterId}/queues/${encodeURIComponent(s.queue)}`}>
                  {s.queue}
                </Anchor>
              </Table.Td>
              <Table.Td>{s.node}</Table.Td>
              <Table.Td>{formatNumber(s.messages)}</Table.Td>
              <Table.Td>{s.consumersOn.join(', ')}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {STRANDED_WHY[s.reason]}
                </Text>
                <Text size="xs" c="dimmed">
                  {s.detail}
                </Text>
              </Table.Td>
              <Table.Td>{formatInstant(s.since)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {suggestions.map(([address, snippet]) => (
        <Stack key={address} gap={4}>
          <Group justify="space-between">
            <Text size="sm" fw={600}>
              Let the broker move the messages of {address} to the consumers (broker.xml):
            </Text>
            <CopyButton value={snippet}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Code block>{snippet}</Code>
        </Stack>
      ))}
    </Stack>
  );
}

/**
 * The cluster as its brokers see it, beside the nodes Studio polls: where the two differ, a
 * connection that balances nothing, the core bridges and broker connections, and the messages
 * left on the wrong node. Nothing for a broker without links that strands nothing.
 */
export function ClusterLinksCard({ clusterId, links }: { clusterId: string; links: ClusterLinks }) {
  const linked = links.connections.length + links.bridges.length + links.brokerConnections.length > 0;
  if (!linked && links.stranded.length === 0) return null;
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={4}>Cluster</Title>
        {links.balancesNothing.map((b) => (
          <Alert key={`${b.node}/${b.connection}`} color="red" title="A cluster that balances nothing">
            Cluster connection {b.connection} on {b.node} has max-hops 0: the nodes connect but share no
            bindings, so messages are neither load-balanced nor redistributed. Set max-hops to 1 or more.
          </Alert>
        ))}
        {links.unregisteredMembers.map((m) => (
          <Alert key={m.brokerNodeId} color="orange" title="A member Studio does not poll">
            Node {m.brokerNodeId} (live {m.live ?? '—'}) is in the topology of {m.seenBy.join(', ')} but is
            not registered: its queues and messages are not in Studio.
          </Alert>
        ))}
        {links.missingFromTopology.map((m) => (
          <Alert key={m.node} color="orange" title="A registered node missing from the cluster">
            {m.node} is live but not in the topology of {m.absentFrom.join(', ')}: it takes no part in the
            cluster's load balancing or redistribution.
          </Alert>
        ))}
        {links.connections.length > 0 && <ConnectionsTable clusterId={clusterId} links={links} />}
        {links.bridges.length > 0 && <BridgesTable bridges={links.bridges} />}
        {links.brokerConnections.length > 0 && <BrokerConnectionsTable clusterId={clusterId} links={links} />}
        {links.stranded.length > 0 && <StrandedTable clusterId={clusterId} stranded={links.stranded} />}
      </Stack>
    </Card>
  );
}
