import { subjectKindOf, type Alert } from '@artemis-studio/contracts';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { nodeChartData } from '../../../lib/metrics/chart-data';
import { useClusterMetrics } from '../../../lib/clusters/get-cluster-metrics';
import { formatDuration, formatTime } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import { LookBadge } from '../../../lib/ui/status-badges';
import { TimeChart } from '../../../lib/ui/time-chart';
import { AddressCharts } from '../../../lib/addresses/address-charts';
import { chartRangeFor, stateLook } from '../alert-text';
import { actionMarkers, alertMarkers, thresholdLine } from '../alert-markers';
import { useAlert, useAlertActions, useDeliveries } from '../api/alerts';
import { AlertChartCard } from './alert-chart-card';
import { QueueTimeline } from './queue-timeline';
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
            <Anchor
              component={Link}
              to={`/clusters/${clusterId}/incident?alert=${a.id}`}
              size="sm"
              data-testid="open-incident"
            >
              The incident around it: every alert, event and action of the hour, to export for the postmortem
            </Anchor>
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
  const actionsAround = useAlertActions(clusterId, alert.id);
  const actions = useMemo(() => actionMarkers(actionsAround.data?.items ?? []), [actionsAround.data]);
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
        <QueueTimeline clusterId={clusterId} alert={alert} rangeMs={rangeMs} actions={actions} />
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
          markers={[...alertMarkers(alert), ...actions]}
          limitThreshold={
            alert.kind === 'address-limit' && alert.threshold !== null ? alert.threshold * 100 : null
          }
        />
        <SubjectEvents clusterId={clusterId} alert={alert} />
      </>
    );
  }
  if (subject === 'node' && NODE_FIGURES[alert.kind])
    return (
      <>
        <NodeTimeline clusterId={clusterId} alert={alert} rangeMs={rangeMs} />
        <SubjectEvents clusterId={clusterId} alert={alert} />
      </>
    );
  if (subject === 'link')
    return (
      <Anchor component={Link} to={`/clusters/${clusterId}`}>
        The cluster's connections and their members, on its overview
      </Anchor>
    );
  if (subject === 'studio')
    return (
      <Anchor component={Link} to={`/clusters/${clusterId}`}>
        The cluster's overview: what Studio observes of it, and why not
      </Anchor>
    );
  return <SubjectEvents clusterId={clusterId} alert={alert} />;
}

/** The history of the alert's address or node, filtered to it. */
function SubjectEvents({ clusterId, alert }: { clusterId: string; alert: Alert }) {
  const subject = subjectKindOf(alert.kind);
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

/** The node alerts charted by a figure of the node, and which. */
const NODE_FIGURES: Partial<Record<Alert['kind'], 'disk' | 'memory'>> = {
  'node-disk-usage': 'disk',
  'node-disk-full-forecast': 'disk',
  'node-address-memory': 'memory',
};

/**
 * A node's journal disk (with the usage where the broker blocks) or its address memory against the
 * global limit, in percent, with the rule's threshold and the alert's moments.
 */
function NodeTimeline({ clusterId, alert, rangeMs }: { clusterId: string; alert: Alert; rangeMs: number }) {
  const metrics = useClusterMetrics(clusterId, rangeMs);
  const data = useMemo(
    () => (metrics.data ? nodeChartData(metrics.data, alert.subject) : null),
    [metrics.data, alert.subject],
  );
  const figure = NODE_FIGURES[alert.kind];
  const threshold =
    alert.threshold !== null && alert.kind !== 'node-disk-full-forecast' ? alert.threshold * 100 : null;
  const title =
    figure === 'disk'
      ? `Journal disk of node ${alert.subject}, % used`
      : `Address memory of node ${alert.subject}, % of its global limit`;
  return (
    <AlertChartCard
      title={`${title}${threshold !== null ? `, threshold ${Math.round(threshold)}%` : ''}`}
      query={metrics}
      what="the node's chart"
    >
      {() =>
        data && (
          <TimeChart
            times={data.times}
            span={data.span}
            series={[
              figure === 'disk'
                ? { label: 'disk used %', color: '#4c6ef5', values: data.disk }
                : { label: 'memory %', color: '#4c6ef5', values: data.memory },
              ...(figure === 'disk'
                ? [{ label: 'blocks at %', color: '#868e96', values: data.diskLimit }]
                : []),
              ...thresholdLine(data.times, threshold),
            ]}
            markers={alertMarkers(alert)}
            unit="%"
            ariaLabel={`${title} with the alert's threshold`}
          />
        )
      }
    </AlertChartCard>
  );
}
