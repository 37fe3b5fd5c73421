import type { Alert, AlertState, AlertSummary, Delivery } from '@artemis-studio/contracts';
import { formatTime } from '../../lib/ui/format';
import type { Look } from '../../lib/ui/status-badges';

/**
 * What the header's alert count says. Never the calm look while some cluster's rules were not
 * evaluated lately: "0 firing" would then be a guess, and the count says so instead.
 */
export function summaryLook(summary: AlertSummary | undefined, failed: boolean): Look & { detail: string } {
  if (!summary || failed)
    return {
      label: 'Alerts unknown',
      color: 'gray',
      variant: 'light',
      detail: failed ? 'the alert count could not be read' : 'loading the alert count',
    };
  const stale = summary.unevaluated.map((u) => `${u.clusterName}: ${u.reason}`).join('; ');
  if (summary.firing > 0)
    return {
      label: `${summary.firing} firing`,
      color: summary.bySeverity.critical > 0 ? 'red' : 'orange',
      variant: 'filled',
      detail: stale
        ? `and not evaluated lately — ${stale}`
        : `${summary.pending} pending, ${summary.silenced} silenced`,
    };
  if (summary.unevaluated.length > 0)
    return { label: 'Alerts not evaluated', color: 'yellow', variant: 'filled', detail: stale };
  if (summary.pending > 0)
    return {
      label: `${summary.pending} pending`,
      color: 'yellow',
      variant: 'light',
      detail: 'conditions hold, not yet for as long as their rules ask',
    };
  return {
    label: 'No alerts',
    color: 'gray',
    variant: 'outline',
    detail: summary.silenced > 0 ? `${summary.silenced} silenced` : 'every rule evaluated lately',
  };
}

const STATE_LOOK: Record<AlertState, Look> = {
  firing: { label: 'Firing', color: 'red', variant: 'filled' },
  pending: { label: 'Pending', color: 'yellow', variant: 'light' },
  resolved: { label: 'Resolved', color: 'gray', variant: 'outline' },
};

export const stateLook = (state: AlertState, silenced: boolean): Look =>
  silenced && state !== 'resolved'
    ? { label: 'Silenced', color: 'gray', variant: 'light' }
    : STATE_LOOK[state];

/**
 * A delivery's status in the log. A pending one is held while a try is under way, so its next-try
 * time alone does not mean it failed: only one with an error is retrying.
 */
export function deliveryStatusText(
  d: Pick<Delivery, 'status' | 'attempts' | 'nextAttemptAt' | 'lastError'>,
): string {
  if (d.status !== 'pending') return d.status;
  if (d.lastError !== null && d.nextAttemptAt) return `retrying at ${formatTime(d.nextAttemptAt)}`;
  return d.attempts > 0 ? 'sending' : 'pending';
}

const MINUTE_MS = 60_000;

/**
 * How far back an alert's chart reaches from now: the alert's whole life and a little before it (a
 * quarter of its age, at least two minutes), in whole minutes, from 5 minutes to a day. A
 * two-second alert is then drawn across the chart, not squeezed against the right edge of an hour.
 */
export function chartRangeFor(alert: Pick<Alert, 'startedAt'>, now: number): number {
  const age = Math.max(0, now - Date.parse(alert.startedAt));
  const wanted = Math.ceil((age + Math.max(2 * MINUTE_MS, age / 4)) / MINUTE_MS) * MINUTE_MS;
  return Math.min(24 * 60 * MINUTE_MS, Math.max(5 * MINUTE_MS, wanted));
}
