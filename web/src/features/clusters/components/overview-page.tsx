import type { CapabilityVerdict, Topology } from '@artemis-studio/contracts';
import { diskText, memoryText, nearLimit } from '../storage-text';
import {
  Badge,
  Card,
  Code,
  CopyButton,
  Button,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { QueryState } from '../../../lib/ui/query-state';
import { formatDuration, formatInstant } from '../../../lib/ui/format';
import { HealthBadge, VerdictBadge } from '../../../lib/ui/status-badges';
import { useCluster } from '../../../lib/clusters/get-cluster';
import { useClusterLinks } from '../api/get-cluster-links';
import { useTopology } from '../api/get-topology';
import { ClusterLinksCard } from './cluster-links-card';
import { ClusterActivity } from './cluster-activity';
import { NodeActivity } from './node-activity';
import { TableHead } from '../../../lib/ui/table-head';
import { CLUSTER_RANGE_NAMES, type ClusterRangeName } from '../../../lib/metrics/chart-data';

const route = getRouteApi('/clusters/$clusterId/');

/** Artemis' ReplicaSync: on a live node, whether a backup is replicating from it; on a backup, whether it caught up. */
function replication(role: string, sync: boolean | null): string {
  if (sync === null) return '—';
  if (role === 'live') return sync ? 'backup in sync' : 'no backup in sync';
  return sync ? 'in sync' : 'not in sync';
}

function NodesTable({ topology }: { topology: Topology }) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table verticalSpacing="sm" aria-label="Nodes">
        <TableHead
          columns={[
            'Node',
            'Role',
            'Replication',
            'Version',
            'Uptime',
            'Journal disk',
            'Address memory',
            'Reachability',
            'Observed',
          ]}
        />
        <Table.Tbody>
          {topology.nodes.map((node) => (
            <Table.Tr key={node.name} data-testid={`node-${node.name}`}>
              <Table.Td fw={600}>{node.name}</Table.Td>
              <Table.Td>
                <Badge variant={node.role === 'live' ? 'outline' : 'light'} color="gray" radius="sm">
                  {node.role}
                </Badge>
              </Table.Td>
              <Table.Td>{replication(node.role, node.replicaSync)}</Table.Td>
              <Table.Td>{node.version ?? '—'}</Table.Td>
              <Table.Td>{formatDuration(node.uptimeMs)}</Table.Td>
              <Table.Td
                c={nearLimit(node.storage.diskUsage, node.storage.diskLimit) ? 'red' : undefined}
                data-testid={`disk-${node.name}`}
              >
                {diskText(node.storage)}
              </Table.Td>
              <Table.Td
                c={nearLimit(node.storage.memoryBytes, node.storage.memoryLimitBytes) ? 'orange' : undefined}
              >
                {memoryText(node.storage)}
              </Table.Td>
              <Table.Td>
                {node.reachable ? (
                  <Text size="sm">reachable</Text>
                ) : (
                  <Stack gap={0}>
                    <Text size="sm" c="red" fw={600}>
                      unreachable
                    </Text>
                    {node.reason && (
                      <Text size="xs" c="dimmed">
                        {node.reason}
                      </Text>
                    )}
                  </Stack>
                )}
              </Table.Td>
              <Table.Td>{formatInstant(node.observedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** "3 queues stranded, 1,240 messages": the figure an operator weighs before reading the list. */
function strandedText(stranded: readonly { messages: number }[]): string {
  const messages = stranded.reduce((sum, s) => sum + s.messages, 0);
  const queues = `${stranded.length} ${stranded.length === 1 ? 'queue' : 'queues'} stranded`;
  return `${queues}, ${messages.toLocaleString('en')} ${messages === 1 ? 'message' : 'messages'}`;
}

/** Whether a notifier crash or restart loses what the brokers send meanwhile (ADR-0015). */
function ModeBadge({ mode }: { mode: NonNullable<CapabilityVerdict['mode']> }) {
  return mode === 'durable' ? (
    <Badge color="teal" variant="light" data-testid="notification-mode">
      durable
    </Badge>
  ) : (
    <Badge color="yellow" variant="light" data-testid="notification-mode">
      not durable
    </Badge>
  );
}

/** Non-negotiable 4: a capability gap is stated, with the broker.xml that closes it. */
function VerdictCard({ verdict }: { verdict: CapabilityVerdict }) {
  // Available but not durable only because the broker refused Studio's ring: that too is a gap to close.
  const gap = verdict.status !== 'AVAILABLE' || verdict.snippet?.includes('<access method=') === true;
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={4}>Broker notifications</Title>
          <Group gap="xs">
            {verdict.mode && <ModeBadge mode={verdict.mode} />}
            <VerdictBadge status={verdict.status} />
          </Group>
        </Group>
        <Text size="sm">{verdict.reason}</Text>
        <Text size="xs" c="dimmed">
          As of {formatInstant(verdict.asOf)}
        </Text>
        {gap && verdict.snippet && (
          <Stack gap={4}>
            <Group justify="space-between">
              <Text size="sm" fw={600}>
                {verdict.status === 'AVAILABLE'
                  ? "Add to the broker's management.xml to keep them while no notifier reads:"
                  : 'Add to broker.xml to close the gap:'}
              </Text>
              <CopyButton value={verdict.snippet}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Code block data-testid="verdict-snippet">
              {verdict.snippet}
            </Code>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}

export function OverviewPage() {
  const { clusterId } = route.useParams();
  const detail = useCluster(clusterId);
  const topology = useTopology(clusterId);
  const links = useClusterLinks(clusterId);
  const navigate = route.useNavigate();
  // The node sparklines and the cluster's charts share one range, and so one query.
  const range: ClusterRangeName = route.useSearch().range ?? '1h';
  return (
    <Stack>
      <Group justify="space-between">
        <Group>
          <Title order={2}>{detail.data?.name ?? 'Cluster'}</Title>
          {topology.data && <HealthBadge health={topology.data.health} />}
          {/* The nodes' health says nothing of messages no consumer can reach: said beside it. */}
          {(links.data?.stranded.length ?? 0) > 0 && (
            <Badge color="orange" variant="light" data-testid="stranded-count">
              {strandedText(links.data!.stranded)}
            </Badge>
          )}
        </Group>
        <SegmentedControl
          aria-label="Time range"
          value={range}
          data={CLUSTER_RANGE_NAMES}
          onChange={(value) => void navigate({ search: { range: value as ClusterRangeName } })}
        />
      </Group>
      <QueryState query={topology} what="topology">
        {(data) => (
          <>
            <NodesTable topology={data} />
            <NodeActivity clusterId={clusterId} nodes={data.nodes.map((n) => n.name)} range={range} />
          </>
        )}
      </QueryState>
      <QueryState query={links} what="cluster connections">
        {(data) => <ClusterLinksCard clusterId={clusterId} links={data} />}
      </QueryState>
      <QueryState query={detail} what="notification verdict">
        {(data) => <VerdictCard verdict={data.capabilities.notifications} />}
      </QueryState>
      <ClusterActivity clusterId={clusterId} range={range} />
    </Stack>
  );
}
