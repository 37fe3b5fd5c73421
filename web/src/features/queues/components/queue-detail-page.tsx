import type { BrokerEvent, QueueRow } from '@artemis-studio/contracts';
import { Anchor, Card, Group, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { mergeFeed } from '../../../lib/live-events/live-event-feed';
import { useLiveEvents } from '../../../lib/live-events/use-live-events';
import { formatNumber, formatRate, formatTime } from '../../../lib/ui/format';
import { EventDrawer } from '../../../lib/ui/event-drawer';
import { QueryState } from '../../../lib/ui/query-state';
import { TableHead } from '../../../lib/ui/table-head';
import { useQueueEvents } from '../../../lib/queues/get-queue-events';
import { useQueueMetrics } from '../../../lib/queues/use-queue-metrics';
import { useQueueBaseline, usualBand } from '../../../lib/queues/use-queue-baseline';
import { useQueues } from '../api/get-queues';
import { useCluster } from '../../../lib/clusters/get-cluster';
import { QueueActions } from './queue-actions';
import { QueueMessages } from './queue-messages';
import { UnmaskedWindow } from './unmasked-window';
import { StrandedMessagesNotice } from './stranded-messages';
import { actionRefusal } from '../action-refusal';
import { oldestWaitingText, pauseText } from '../action-text';
import { DeadLetterGroups } from '../message-jobs/components/dead-letter-groups';
import { MessageJobsPanel } from '../message-jobs/components/message-jobs-panel';
import { useAbilities } from '../../../lib/access/me';
import { chartData, markersOf, RANGES, type RangeName } from '../../../lib/metrics/chart-data';
import { MetricCharts } from '../../../lib/metrics/metric-charts';
import { AddressCharts } from '../../../lib/addresses/address-charts';

const route = getRouteApi('/clusters/$clusterId/queues/$queue');

const ATTRIBUTE_COLUMNS = [
  'Node',
  'Address',
  'Routing',
  'Depth',
  'Oldest waiting',
  'Consumers',
  'Delivering',
  'Added',
  'Acked',
  'Expired',
  'Killed',
  'In/s',
  'Acked/s',
  'State',
  'Observed',
];

function Attributes({ rows }: { rows: QueueRow[] }) {
  if (rows.length === 0)
    return <Text c="dimmed">The queue is not on any node now; its history is below.</Text>;
  return (
    <Table.ScrollContainer minWidth={1000}>
      <Table aria-label="Queue on each node">
        <TableHead columns={ATTRIBUTE_COLUMNS} />
        <Table.Tbody>
          {rows.map((q) => (
            <Table.Tr key={q.node}>
              <Table.Td fw={600}>{q.node}</Table.Td>
              <Table.Td>{q.address}</Table.Td>
              <Table.Td>{q.routingType}</Table.Td>
              <Table.Td data-testid={`depth-${q.node}`}>{formatNumber(q.messageCount)}</Table.Td>
              <Table.Td>{oldestWaitingText(q.oldestMessageAt, Date.parse(q.observedAt))}</Table.Td>
              <Table.Td>{q.consumerCount}</Table.Td>
              <Table.Td>{q.deliveringCount}</Table.Td>
              <Table.Td>{formatNumber(q.messagesAdded)}</Table.Td>
              <Table.Td>{formatNumber(q.messagesAcknowledged)}</Table.Td>
              <Table.Td>{formatNumber(q.messagesExpired)}</Table.Td>
              <Table.Td>{formatNumber(q.messagesKilled)}</Table.Td>
              <Table.Td>{formatRate(q.addedPerSecond)}</Table.Td>
              <Table.Td>{formatRate(q.acknowledgedPerSecond)}</Table.Td>
              <Table.Td>
                {[pauseText(q), q.durable ? 'durable' : 'non-durable'].filter(Boolean).join(', ')}
              </Table.Td>
              <Table.Td>{formatTime(q.observedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * One queue: its attributes on each node, depth and rates over time, and the broker events of
 * the same period on the charts (what no peer shows: it keeps no broker events).
 */
export function QueueDetailPage() {
  const { clusterId, queue } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const range: RangeName = search.range ?? '1h';
  const rangeMs = RANGES[range];

  const attributes = useQueues(clusterId, {
    page: 1,
    pageSize: 100,
    sort: 'name',
    order: 'asc',
    search: queue,
  });
  const cluster = useCluster(clusterId);
  const can = useAbilities();
  const metrics = useQueueMetrics(clusterId, queue, { rangeMs });
  const history = useQueueEvents(clusterId, queue, rangeMs);
  // Held while paused like every live event (ADR-0052: paused means nothing moves).
  const { events: live, held } = useLiveEvents(clusterId, (e) => e.queue === queue, queue);
  const [selected, setSelected] = useState<BrokerEvent | null>(null);

  // Oldest first, as the charts' markers are laid out, within the range shown.
  const events = useMemo(() => {
    const since = Date.now() - rangeMs;
    return mergeFeed(live, history.data?.items ?? [])
      .filter((e) => Date.parse(e.brokerTs ?? e.receivedAt) >= since)
      .reverse();
  }, [history.data, live, rangeMs]);
  const markers = useMemo(() => markersOf(events), [events]);
  const data = useMemo(() => (metrics.data ? chartData(metrics.data) : null), [metrics.data]);
  const baseline = useQueueBaseline(clusterId, queue, rangeMs);
  const band = useMemo(() => baseline.data && usualBand(baseline.data), [baseline.data]);
  const address = attributes.data?.items.find((q) => q.name === queue)?.address;

  return (
    <Stack>
      <Group justify="space-between">
        <Stack gap={0}>
          <Anchor component={Link} to={`/clusters/${clusterId}/queues`} size="sm">
            ← Queues
          </Anchor>
          <Title order={2}>{queue}</Title>
          {cluster.data && (
            <QueueActions
              clusterId={clusterId}
              cluster={cluster.data}
              queue={queue}
              rows={(attributes.data?.items ?? []).filter((q) => q.name === queue)}
            />
          )}
        </Stack>
        <SegmentedControl
          aria-label="Time range"
          value={range}
          data={Object.keys(RANGES)}
          onChange={(value) => void navigate({ search: { range: value as RangeName } })}
        />
      </Group>
      <QueryState query={attributes} what="queue">
        {(page) => <Attributes rows={page.items.filter((q) => q.name === queue)} />}
      </QueryState>
      {cluster.data && address !== undefined && (
        <StrandedMessagesNotice
          clusterId={clusterId}
          queue={queue}
          address={address}
          refusal={actionRefusal(can, cluster.data)}
        />
      )}
      <QueryState query={metrics} what="queue charts">
        {() =>
          data && (
            <MetricCharts
              data={data}
              markers={markers}
              onMarker={(i) => setSelected(events[i])}
              depthTitle="Depth"
              ratesTitle="Messages in and acknowledged per second"
              subject={`of ${queue}, last ${range}`}
              layout="stack"
              queueFigures
              band={band ?? undefined}
            />
          )
        }
      </QueryState>
      {address && (
        <AddressCharts
          clusterId={clusterId}
          address={address}
          rangeMs={rangeMs}
          rangeName={range}
          markers={markers}
        />
      )}
      <Card withBorder>
        <Group justify="space-between" mb="xs">
          <Text fw={600}>Broker events on the charts ({events.length})</Text>
          {held > 0 && (
            <Text size="sm" c="dimmed" data-testid="events-held">
              {formatNumber(held)} new, shown on Resume
            </Text>
          )}
        </Group>
        {events.length === 0 ? (
          <Text size="sm" c="dimmed">
            No consumer, binding or other broker event for this queue in the last {range}.
          </Text>
        ) : (
          <Stack gap={2}>
            {events
              .slice(-20)
              .reverse()
              .map((e) => (
                <Anchor key={e.seq} component="button" size="sm" ta="left" onClick={() => setSelected(e)}>
                  {formatTime(e.brokerTs ?? e.receivedAt)} · {e.type}
                  {e.remoteAddress ? ` · ${e.remoteAddress}` : ''}
                </Anchor>
              ))}
          </Stack>
        )}
      </Card>
      <MessageJobsPanel
        clusterId={clusterId}
        queue={queue}
        refusal={cluster.data ? actionRefusal(can, cluster.data) : 'the cluster is still loading'}
      />
      {cluster.data && (
        <DeadLetterGroups clusterId={clusterId} queue={queue} refusal={actionRefusal(can, cluster.data)} />
      )}
      {cluster.data && (
        <UnmaskedWindow
          clusterId={clusterId}
          queue={queue}
          refusal={can.refusal(cluster.data.name, 'admin')}
        />
      )}
      {cluster.data && (
        <QueueMessages
          clusterId={clusterId}
          queue={queue}
          refusal={can.refusal(cluster.data.name, cluster.data.messageBodies)}
          actionRefusal={actionRefusal(can, cluster.data)}
        />
      )}
      <EventDrawer event={selected} onClose={() => setSelected(null)} />
    </Stack>
  );
}
