import { subjectKindOf, type Alert, type BrokerEvent } from '@artemis-studio/contracts';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { chartData, markersOf } from '../../../lib/metrics/chart-data';
import { formatDuration, formatTime } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import { LookBadge } from '../../../lib/ui/status-badges';
import { TimeChart, type ChartMarker } from '../../../lib/ui/time-chart';
import { AddressCharts } from '../../addresses/components/address-charts';
import { useQueueEvents } from '../../queues/api/get-queue-events';
import { useQueueMetrics } from '../../queues/hooks/use-queue-metrics';
import { chartRangeFor, stateLook } from '../alert-text';
import { useAlert, useDeliveries } from '../api/alerts';
import { DeliveryLog } from './delivery-log';

/** One alert: what it says, when it started, fired and ended, who was told, and what happened around it. */
export function AlertPage() {
  const { clusterId, alertId } = useParams({ from: '/clusters/$clusterId/alerts/$alertId' });
  const alert = useAlert(clusterId, alertId);
  const deliveries = useDeliveries(clusterId, alertId);
  return (
    <Stack>
      <Anchor component={Link} to="/alerts" size="sm">
        ← Alerts
      </Anchor>
      <QueryState query={alert} what="the alert">
        {(a) => (
          <Stack>
            <Group>
              <Title order={2}>
                {a.ruleName}: {a.subject}
              </Title>
              <LookBadge look={stateLook(a.state, a.silencedBy !== null)} size="lg" />
              <Text c="dimmed">{a.severity}</Text>
            </Group>
            <Text>{a.description}</Text>
            <SimpleGrid cols={{ base: 2, md: 4 }}>
              <Fact label="Condition first held" value={formatTime(a.startedAt)} />
              <Fact label="Fired" value={a.firedAt ? formatTime(a.firedAt) : 'not yet'} />
              <Fact
                label="Ended"
                value={a.endedAt ? `${formatTime(a.endedAt)}: ${a.endReason ?? ''}` : 'not yet'}
              />
              <Fact label="Last evaluated" value={formatTime(a.lastEvaluatedAt)} />
            </SimpleGrid>
            <SubjectContext clusterId={clusterId} alert={a} />
          </Stack>
        )}
      </QueryState>
      <Card withBorder>
        <Stack>
          <Text fw={600}>Who was told</Text>
          <DeliveryLog query={deliveries} />
        </Stack>
      </Card>
    </Stack>
  );
}

/** What explains the alert: a queue's chart and events, an address's charts, a node's broker events. */
function SubjectContext({ clusterId, alert }: { clusterId: string; alert: Alert }) {
  const subject = subjectKindOf(alert.kind);
  // Chosen once when the page opens: a range that moved with the clock would read the window again.
  const [rangeMs] = useState(() => chartRangeFor(alert, Date.now()));
  if (subject === 'queue')
    return (
      <>
        {alert.kind === 'queue-stuck-consumer' && (
          <Text size="sm">
            A consumer may be stuck on the message at the queue's head (a poison message):{' '}
            <Anchor
              component={Link}
              to={`/clusters/${clusterId}/queues/${encodeURIComponent(alert.subject)}`}
              hash="queue-messages"
            >
              open {alert.subject}'s messages at its head
            </Anchor>
            , where it can be moved to the dead-letter queue or deleted.
          </Text>
        )}
        <QueueTimeline clusterId={clusterId} alert={alert} rangeMs={rangeMs} />
      </>
    );
  if (subject === 'address') {
    return (
      <>
        <AddressCharts
          clusterId={clusterId}
          address={alert.subject}
          rangeMs={rangeMs}
          rangeName={formatDuration(rangeMs)}
          markers={alertMarkers(alert)}
          limitThreshold={
            alert.kind === 'address-limit' && alert.threshold !== null ? alert.threshold * 100 : null
          }
        />
        <Anchor
          component={Link}
          to={`/clusters/${clusterId}/events?address=${encodeURIComponent(alert.subject)}`}
        >
          Broker events of address {alert.subject}
        </Anchor>
      </>
    );
  }
  if (subject === 'studio')
    return (
      <Anchor component={Link} to={`/clusters/${clusterId}`}>
        The cluster's overview: what Studio observes of it, and why not
      </Anchor>
    );
  return (
    <Anchor
      component={Link}
      to={`/clusters/${clusterId}/events?${subject}=${encodeURIComponent(alert.subject)}`}
    >
      Broker events of {subject} {alert.subject}
    </Anchor>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </Stack>
  );
}

/** The alert's own moments, for a chart: the condition first held, fired, resolved. */
function alertMarkers(alert: Alert): ChartMarker[] {
  return [
    { t: Date.parse(alert.startedAt) / 1000, label: 'condition held', color: '#fab005' },
    ...(alert.firedAt
      ? [{ t: Date.parse(alert.firedAt) / 1000, label: 'alert fired', color: '#fa5252' }]
      : []),
    ...(alert.endedAt
      ? [{ t: Date.parse(alert.endedAt) / 1000, label: 'alert resolved', color: '#40c057' }]
      : []),
  ];
}

/**
 * The queue's depth with the rule's threshold drawn on it, and on the same axis the queue's broker
 * events and the alert's own moments: "consumer closed at 10:41, depth climbing from 10:41, fired
 * at 10:46".
 */
function QueueTimeline({ clusterId, alert, rangeMs }: { clusterId: string; alert: Alert; rangeMs: number }) {
  const metrics = useQueueMetrics(clusterId, alert.subject, { rangeMs });
  const history = useQueueEvents(clusterId, alert.subject, rangeMs);
  const events: BrokerEvent[] = useMemo(() => [...(history.data?.items ?? [])].reverse(), [history.data]);
  const markers = useMemo(
    () => [...markersOf(events), ...alertMarkers(alert)].sort((a, b) => a.t - b.t),
    [events, alert],
  );
  const data = useMemo(() => (metrics.data ? chartData(metrics.data) : null), [metrics.data]);
  const threshold = alert.kind === 'queue-depth' ? alert.threshold : null;
  return (
    <Card withBorder data-testid="alert-chart">
      <Text fw={600} size="sm" mb="xs">
        Depth of {alert.subject}
        {threshold !== null ? `, threshold ${threshold}` : ''}, with its broker events
      </Text>
      <QueryState query={metrics} what="the queue's chart">
        {() =>
          data && (
            <TimeChart
              times={data.times}
              span={data.span}
              series={[
                data.depth[0],
                ...(threshold !== null
                  ? [{ label: 'threshold', color: '#fa5252', values: data.times.map(() => threshold) }]
                  : []),
              ]}
              markers={markers}
              unit="messages"
              ariaLabel={`Depth of ${alert.subject} with the alert's threshold and events`}
            />
          )
        }
      </QueryState>
      <Stack gap={2} mt="sm">
        {markers
          .slice(-12)
          .reverse()
          .map((m) => (
            <Text size="sm" key={`${m.t}-${m.label}`}>
              {formatTime(m.t * 1000)} — {m.label}
            </Text>
          ))}
      </Stack>
    </Card>
  );
}
