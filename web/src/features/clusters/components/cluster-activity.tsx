import type { BrokerEvent } from '@artemis-studio/contracts';
import { Anchor, Card, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useMemo, useState, type ReactNode } from 'react';
import {
  chartData,
  CLUSTER_RANGE_TEXT,
  CLUSTER_RANGES,
  isTimelineEvent,
  markersOf,
  type ClusterRangeName,
} from '../../../lib/metrics/chart-data';
import { MetricCharts } from '../../../lib/metrics/metric-charts';
import { EventDrawer } from '../../../lib/ui/event-drawer';
import { QueryState } from '../../../lib/ui/query-state';
import { useClusterMetrics } from '../../../lib/clusters/get-cluster-metrics';
import { useClusterEvents, useDeepestQueues, useGrowingQueues } from '../api/get-cluster-activity';

const GROWTH_WINDOW = 15 * 60_000;

function QueueList({
  clusterId,
  rows,
  empty,
  label,
}: {
  clusterId: string;
  rows: { queue: string; node: string; figure: ReactNode }[];
  empty: string;
  label: string;
}) {
  if (rows.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Table aria-label={label} verticalSpacing={4}>
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={`${r.node}/${r.queue}`}>
            <Table.Td
              style={{ maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
            >
              <Anchor
                component={Link}
                to={`/clusters/${clusterId}/queues/${encodeURIComponent(r.queue)}`}
                size="sm"
              >
                {r.queue}
              </Anchor>
            </Table.Td>
            <Table.Td>
              <Text size="xs" c="dimmed">
                {r.node}
              </Text>
            </Table.Td>
            <Table.Td ta="right">{r.figure}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** The cluster over the range at a glance: depth and rates, the deepest and the fastest-growing queues. */
export function ClusterActivity({ clusterId, range }: { clusterId: string; range: ClusterRangeName }) {
  const rangeMs = CLUSTER_RANGES[range];
  const when = CLUSTER_RANGE_TEXT[range];
  const metrics = useClusterMetrics(clusterId, rangeMs);
  const deepest = useDeepestQueues(clusterId);
  const growing = useGrowingQueues(clusterId, GROWTH_WINDOW);
  const history = useClusterEvents(clusterId, rangeMs);
  const data = useMemo(() => (metrics.data ? chartData(metrics.data) : null), [metrics.data]);
  const events = useMemo(
    () =>
      [...(history.data?.items ?? [])].filter((e) => isTimelineEvent(e.type)).sort((a, b) => a.seq - b.seq),
    [history.data],
  );
  const markers = useMemo(() => markersOf(events), [events]);
  const [selected, setSelected] = useState<BrokerEvent | null>(null);
  const timeline = { markers, onMarker: (i: number) => setSelected(events[i]) };
  return (
    <Stack>
      <QueryState query={metrics} what="cluster charts">
        {() =>
          data && (
            <MetricCharts
              data={data}
              {...timeline}
              depthTitle={`Messages waiting, ${when}`}
              ratesTitle={`In and acknowledged per second, ${when}`}
              subject={`of the cluster, ${when}`}
              layout="grid"
              height={140}
            />
          )
        }
      </QueryState>
      <SimpleGrid cols={2}>
        <Card withBorder>
          <Text fw={600} size="sm" mb="xs">
            Deepest queues
          </Text>
          <QueryState query={deepest} what="deepest queues">
            {(page) => (
              <QueueList
                clusterId={clusterId}
                label="Deepest queues"
                empty={page.items.length === 0 ? 'No queue observed yet.' : 'No queue holds a message.'}
                rows={page.items
                  .filter((q) => q.messageCount > 0)
                  .map((q) => ({ queue: q.name, node: q.node, figure: q.messageCount.toLocaleString() }))}
              />
            )}
          </QueryState>
        </Card>
        <Card withBorder>
          <Text fw={600} size="sm" mb="xs">
            Fastest growing, last 15 min
          </Text>
          <QueryState query={growing} what="fastest-growing queues">
            {(page) => (
              <QueueList
                clusterId={clusterId}
                label="Fastest-growing queues"
                empty="No queue grew in the last 15 minutes."
                rows={page.items.map((q) => ({
                  queue: q.queue,
                  node: q.node,
                  figure: `+${q.growth.toLocaleString()}`,
                }))}
              />
            )}
          </QueryState>
        </Card>
      </SimpleGrid>
      <EventDrawer event={selected} onClose={() => setSelected(null)} />
    </Stack>
  );
}
