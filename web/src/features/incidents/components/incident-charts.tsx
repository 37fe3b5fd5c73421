import type { Incident, IncidentMoment, IncidentSubject } from '@artemis-studio/contracts';
import { Card, Text } from '@mantine/core';
import { useMemo } from 'react';
import { chartData, nodeChartData } from '../../../lib/metrics/chart-data';
import { QueryState } from '../../../lib/ui/query-state';
import { TimeChart, type ChartMarker } from '../../../lib/ui/time-chart';
import { useIncidentNodeMetrics, useIncidentQueueMetrics } from '../api/incident';

const MOMENT_COLORS: Record<IncidentMoment['kind'], string> = {
  alert: '#fa5252',
  action: '#7950f2',
  event: '#868e96',
  unobserved: '#fd7e14',
  role: '#15aabf',
  drop: '#e64980',
};

/** The moments of one subject as chart markers: the alerts', the people's and the broker's. */
function markersOf(moments: readonly IncidentMoment[], subject: string): ChartMarker[] {
  return moments
    .filter((m) => m.subject === subject)
    .map((m) => ({ t: Date.parse(m.at) / 1000, label: m.text, color: MOMENT_COLORS[m.kind] }));
}

/**
 * A chart of the incident: a card whose canvas the Markdown export takes as an image, by its title
 * (`data-title`), so the file holds what the screen shows.
 */
function IncidentChart({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder data-testid="incident-chart" data-title={title}>
      <Text fw={600} size="sm" mb="xs">
        {title}
      </Text>
      {children}
    </Card>
  );
}

function QueueChart({ incident, queue }: { incident: Incident; queue: string }) {
  const metrics = useIncidentQueueMetrics(incident.clusterId, queue, incident.from, incident.to);
  const data = useMemo(() => (metrics.data ? chartData(metrics.data) : null), [metrics.data]);
  const markers = useMemo(() => markersOf(incident.moments, queue), [incident.moments, queue]);
  const title = `Depth of queue ${queue}`;
  return (
    <IncidentChart title={title}>
      <QueryState query={metrics} what="the queue's chart">
        {() =>
          data && (
            <TimeChart
              times={data.times}
              span={data.span}
              series={[data.depth[0]]}
              markers={markers}
              unit="messages"
              ariaLabel={`${title}, with the incident's moments`}
            />
          )
        }
      </QueryState>
    </IncidentChart>
  );
}

function NodeChart({ incident, node }: { incident: Incident; node: string }) {
  const metrics = useIncidentNodeMetrics(incident.clusterId, incident.from, incident.to);
  const data = useMemo(() => (metrics.data ? nodeChartData(metrics.data, node) : null), [metrics.data, node]);
  const markers = useMemo(() => markersOf(incident.moments, node), [incident.moments, node]);
  const title = `Node ${node}: journal disk and address memory, %`;
  return (
    <IncidentChart title={title}>
      <QueryState query={metrics} what="the node's chart">
        {() =>
          data && (
            <TimeChart
              times={data.times}
              span={data.span}
              series={[
                { label: 'disk used %', color: '#4c6ef5', values: data.disk },
                { label: 'memory %', color: '#12b886', values: data.memory },
              ]}
              markers={markers}
              unit="%"
              ariaLabel={`${title}, with the incident's moments`}
            />
          )
        }
      </QueryState>
    </IncidentChart>
  );
}

/** The charts of the subjects involved, each with its own moments on it. */
export function IncidentCharts({ incident }: { incident: Incident }) {
  const charted = (s: IncidentSubject) => s.kind === 'queue' || s.kind === 'node';
  return (
    <>
      {incident.subjects
        .filter(charted)
        .map((s) =>
          s.kind === 'queue' ? (
            <QueueChart key={`q:${s.name}`} incident={incident} queue={s.name} />
          ) : (
            <NodeChart key={`n:${s.name}`} incident={incident} node={s.name} />
          ),
        )}
    </>
  );
}
