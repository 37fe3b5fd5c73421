import type { Alert, SubjectAction } from '@artemis-studio/contracts';
import type { ChartMarker } from '../../lib/ui/time-chart';

/** The alert's own moments, for a chart: the condition first held, fired, resolved. */
export function alertMarkers(alert: Alert): ChartMarker[] {
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

/** "queue.purge by alice (removed 5000)": an action on the subject, as a chart's marker says it. */
export function actionText(action: SubjectAction): string {
  const counts = Object.entries(action.counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  return `${action.action} by ${action.actor}${counts ? ` (${counts})` : ''}`;
}

/** The people's actions on the alert's subject, for a chart: drawn in violet, apart from the broker's events. */
export const actionMarkers = (actions: readonly SubjectAction[]): ChartMarker[] =>
  actions.map((a) => ({ t: Date.parse(a.at) / 1000, label: actionText(a), color: '#7950f2' }));

/** A rule's threshold as a flat line over the chart's times; nothing when the rule has none. */
export const thresholdLine = (times: readonly number[], threshold: number | null) =>
  threshold === null ? [] : [{ label: 'threshold', color: '#fa5252', values: times.map(() => threshold) }];
