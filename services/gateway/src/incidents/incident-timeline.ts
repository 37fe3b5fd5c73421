import {
  INCIDENT_SUBJECTS_SHOWN,
  subjectKindOf,
  unobservedPeriod,
  type Alert,
  type BrokerEvent,
  type EventDrops,
  type IncidentMoment,
  type IncidentSubject,
} from '@artemis-studio/contracts';

/** An action of the audit trail as the incident reads it. */
export interface ActionRow {
  at: Date;
  action: string;
  actor: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

/** A node whose role last changed in the range. */
export interface RoleChangeRow {
  node: string;
  role: 'live' | 'backup' | null;
  at: Date;
}

const moment = (
  at: string,
  kind: IncidentMoment['kind'],
  subject: string | null,
  text: string,
  alertId: string | null = null,
): IncidentMoment => ({ at, kind, subject, text, alertId });

const over = (alert: Alert) => (alert.threshold === null ? '' : ` (threshold ${alert.threshold})`);

/**
 * An alert's moments: its condition first held (when it waited its rule's `for` before firing),
 * it fired (over which threshold), it ended (and why).
 */
export function alertMoments(alert: Alert): IncidentMoment[] {
  const name = `${alert.ruleName} (${alert.severity})`;
  const moments: IncidentMoment[] = [];
  if (alert.firedAt !== alert.startedAt)
    moments.push(moment(alert.startedAt, 'alert', alert.subject, `${name}: condition held`, alert.id));
  // Not its description: that is worded with the alert's last value, not the one it fired on.
  if (alert.firedAt)
    moments.push(moment(alert.firedAt, 'alert', alert.subject, `${name} fired${over(alert)}`, alert.id));
  if (alert.endedAt)
    moments.push(
      moment(
        alert.endedAt,
        'alert',
        alert.subject,
        `${name} ${alert.firedAt ? 'resolved' : 'cleared before firing'}${alert.endReason ? `: ${alert.endReason}` : ''}`,
        alert.id,
      ),
    );
  return moments;
}

/** "queue.purge of orders by alice (removed 5)": the counts it reported, never a filter or a body. */
export function actionMoment(row: ActionRow): IncidentMoment {
  const counts = Object.entries(row.detail ?? {})
    .filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]))
    .map(([name, n]) => `${name} ${n}`);
  const text = `${row.action}${row.target ? ` of ${row.target}` : ''} by ${row.actor}${counts.length ? ` (${counts.join(', ')})` : ''}`;
  return moment(row.at.toISOString(), 'action', row.target, text);
}

/** A broker event in words, or the period it records Studio did not observe the notifications. */
export function eventMoment(event: BrokerEvent): IncidentMoment {
  const at = event.brokerTs ?? event.receivedAt;
  const period = unobservedPeriod(event);
  if (period) {
    const seconds =
      period.from === null ? null : Math.round((Date.parse(period.until) - Date.parse(period.from)) / 1000);
    return moment(
      period.from ?? at,
      'unobserved',
      event.node,
      `Notifications of node ${event.node} unobserved ${seconds === null ? 'for an unknown time' : `for ${seconds} s`} until ${period.until} (${period.reason}): what the broker sent then is not in the history`,
    );
  }
  const where = [
    event.queue && `queue ${event.queue}`,
    event.address && event.address !== event.queue && `address ${event.address}`,
    event.remoteAddress && `from ${event.remoteAddress}`,
    event.user && `user ${event.user}`,
  ].filter(Boolean);
  return moment(
    at,
    'event',
    event.queue ?? event.address ?? event.node,
    `${event.type} on node ${event.node}${where.length ? `: ${where.join(', ')}` : ''}`,
  );
}

/** The broker events lost at a bound in the range: how many, where, over which period. */
export function dropMoments(drops: readonly EventDrops[], from: Date, to: Date): IncidentMoment[] {
  return drops
    .filter((d) => Date.parse(d.lastAt) >= from.getTime() && Date.parse(d.firstAt) <= to.getTime())
    .map((d) =>
      moment(
        d.firstAt,
        'drop',
        null,
        `${d.dropped} broker events lost at the ${d.source} between ${d.firstAt} and ${d.lastAt} (over all time, not only this range)`,
      ),
    );
}

export function roleMoment(row: RoleChangeRow): IncidentMoment {
  return moment(row.at.toISOString(), 'role', row.node, `Node ${row.node} became ${row.role ?? 'unknown'}`);
}

/**
 * The subjects the alerts are about, queues, addresses and nodes, each once, in the order their
 * first alert started; links and Studio's own subjects have no chart of their own.
 */
export function subjectsOf(alerts: readonly Alert[]): IncidentSubject[] {
  const seen = new Map<string, IncidentSubject>();
  for (const alert of alerts) {
    const kind = subjectKindOf(alert.kind);
    if (kind !== 'queue' && kind !== 'address' && kind !== 'node') continue;
    const key = `${kind}:${alert.subject}`;
    if (!seen.has(key)) seen.set(key, { kind, name: alert.subject });
  }
  return [...seen.values()].slice(0, INCIDENT_SUBJECTS_SHOWN);
}

/**
 * The moments inside [from, to], oldest first, in a stable order when two share a time: an alert's
 * moment after the events and actions that led to it.
 */
export function inOrder(moments: readonly IncidentMoment[], from: Date, to: Date): IncidentMoment[] {
  const rank: Record<IncidentMoment['kind'], number> = {
    unobserved: 0,
    drop: 1,
    role: 2,
    event: 3,
    action: 4,
    alert: 5,
  };
  return moments
    .filter((m) => {
      const at = Date.parse(m.at);
      return (at >= from.getTime() && at <= to.getTime()) || m.kind === 'drop' || m.kind === 'unobserved';
    })
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || rank[a.kind] - rank[b.kind]);
}
