import { ALERT_SEVERITIES, type Alert, type AlertSeverity } from '@artemis-studio/contracts';

const SEVERITY_RANK = Object.fromEntries(ALERT_SEVERITIES.map((s, i) => [s, i])) as Record<
  AlertSeverity,
  number
>;

/** What decides whether a receiver hears of an alert. */
export interface ReceiverChoice {
  minSeverity: AlertSeverity;
  /** Labels the alert's rule must carry, each with this value (issue 61: a team's receiver). */
  matchers: Record<string, string>;
}

/** Whether the receiver takes the alert: of its severity or above, and carrying each of its matchers. */
export function receiverTakes(receiver: ReceiverChoice, alert: Pick<Alert, 'severity' | 'labels'>): boolean {
  return (
    SEVERITY_RANK[alert.severity] >= SEVERITY_RANK[receiver.minSeverity] &&
    Object.entries(receiver.matchers).every(([name, value]) => alert.labels[name] === value)
  );
}
