import type { Alert, BrokerEvent } from '@artemis-studio/contracts';
import { useMemo } from 'react';
import { chartData, markersOf } from '../../../lib/metrics/chart-data';
import { useQueueEvents } from '../../../lib/queues/get-queue-events';
import { firingLevel, useQueueBaseline, usualBand } from '../../../lib/queues/use-queue-baseline';
import { useQueueMetrics } from '../../../lib/queues/use-queue-metrics';
import { TimeChart, type ChartMarker } from '../../../lib/ui/time-chart';
import { alertMarkers, thresholdLine } from '../alert-markers';
import { AlertChartCard } from './alert-chart-card';

/** What a queue alert is charted by: the figure its rule reads, with its threshold. */
function queueFigureOf(alert: Alert) {
  const subject = alert.subject;
  type Data = ReturnType<typeof chartData>;
  if (alert.kind === 'queue-oldest-message')
    return {
      title: `How long the oldest message of ${subject} has waited`,
      unit: 'seconds',
      series: (d: Data) => [d.oldest],
      threshold: alert.threshold,
    };
  if (alert.kind === 'queue-stuck-consumer')
    return {
      title: `Depth of ${subject} and its messages in delivery`,
      unit: 'messages',
      series: (d: Data) => [d.depth[0], d.delivering],
      threshold: null,
    };
  return {
    title: `Depth of ${subject}`,
    unit: 'messages',
    series: (d: Data) => [d.depth[0]],
    threshold: alert.kind === 'queue-depth' ? alert.threshold : null,
  };
}

/**
 * The queue's depth with the rule's threshold drawn on it (a baseline rule's usual band behind it),
 * and on the same axis the queue's broker events, the people's actions on it and the alert's own
 * moments: "consumer closed at 10:41, depth climbing from 10:41, fired at 10:46, purged by alice".
 */
export function QueueTimeline({
  clusterId,
  alert,
  rangeMs,
  actions,
}: {
  clusterId: string;
  alert: Alert;
  rangeMs: number;
  actions: ChartMarker[];
}) {
  const metrics = useQueueMetrics(clusterId, alert.subject, { rangeMs });
  const history = useQueueEvents(clusterId, alert.subject, rangeMs);
  const baselined = alert.kind === 'queue-depth-baseline';
  const baseline = useQueueBaseline(clusterId, alert.subject, rangeMs, baselined);
  const band = useMemo(() => baseline.data && usualBand(baseline.data), [baseline.data]);
  const events: BrokerEvent[] = useMemo(() => [...(history.data?.items ?? [])].reverse(), [history.data]);
  const markers = useMemo(
    () => [...markersOf(events), ...actions, ...alertMarkers(alert)].sort((a, b) => a.t - b.t),
    [events, actions, alert],
  );
  const data = useMemo(() => (metrics.data ? chartData(metrics.data) : null), [metrics.data]);
  const figure = queueFigureOf(alert);
  const title =
    figure.title +
    (figure.threshold !== null ? `, threshold ${figure.threshold}` : '') +
    (baselined && alert.threshold !== null ? `, over ${alert.threshold}× its usual top` : '') +
    ', with its broker events and the actions on it';
  return (
    <AlertChartCard
      title={title}
      note={band?.note}
      query={metrics}
      what="the queue's chart"
      moments={markers}
    >
      {() =>
        data && (
          <TimeChart
            times={data.times}
            span={data.span}
            series={[
              ...figure.series(data),
              ...thresholdLine(data.times, figure.threshold),
              ...(band && alert.threshold !== null
                ? [
                    {
                      label: 'fires above',
                      color: '#fa5252',
                      values: firingLevel(band.stretches, data.times, alert.threshold),
                    },
                  ]
                : []),
            ]}
            markers={markers}
            unit={figure.unit}
            ariaLabel={`${figure.title} with the alert's threshold, events and actions`}
            bands={band?.stretches}
          />
        )
      }
    </AlertChartCard>
  );
}
