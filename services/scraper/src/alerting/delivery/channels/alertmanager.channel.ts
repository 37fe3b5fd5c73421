import { subjectKindOf, type Alert } from '@artemis-studio/contracts';
import type { AlertChannel } from './alert-channel';
import { consoleLinks } from './alert-text';
import { postJson } from './post-json';

/**
 * Alertmanager ends an alert it is not told about again within its `endsAt`: firing alerts are
 * posted again every minute with an `endsAt` five minutes ahead, so a Studio that stops (rather than
 * resolves) lets them end on their own, and a live one never lets them lapse.
 */
const ALERTMANAGER_REFRESH_MS = 60_000;
const ALERTMANAGER_ENDS_AFTER_MS = 5 * 60_000;

/**
 * The labels Alertmanager routes, groups and silences by. A receiver's test says `kind="test"` and
 * names no subject, so no route written for a real kind takes it for one.
 */
export function alertmanagerAlert(alert: Alert, now: Date, test = false, consoleUrl: string | null = null) {
  const about: Record<string, string> = test
    ? { kind: 'test' }
    : { kind: alert.kind, [subjectKindOf(alert.kind)]: alert.subject };
  const labels: Record<string, string> = {
    ...alert.labels,
    alertname: alert.ruleName,
    cluster: alert.clusterName,
    severity: alert.severity,
    ...about,
  };
  const links = consoleLinks(
    consoleUrl,
    test ? 'test' : alert.state === 'resolved' ? 'resolved' : 'firing',
    alert,
  );
  return {
    labels,
    // Alertmanager's link back to where the alert came from: its page in the console.
    ...(links ? { generatorURL: links.page } : {}),
    annotations: {
      description: alert.description,
      summary: `${alert.ruleName}: ${alert.subject}`,
      // The incident around it, for a template that links it beside the alert's page.
      ...(links?.incident ? { incident: links.incident } : {}),
    },
    startsAt: alert.firedAt ?? alert.startedAt,
    endsAt:
      alert.state === 'resolved' && alert.endedAt
        ? alert.endedAt
        : new Date(now.getTime() + ALERTMANAGER_ENDS_AFTER_MS).toISOString(),
  };
}

const alertsUrl = (base: string) => `${base.replace(/\/+$/, '')}/api/v2/alerts`;

/** Alertmanager's v2 API, re-posted while firing so it never times an alert out. */
export const alertmanagerChannel: AlertChannel<'alertmanager'> = {
  kind: 'alertmanager',
  send: (receiver, { alert, transition }, { post, now, consoleUrl }) =>
    postJson(post, alertsUrl(receiver.url), [
      alertmanagerAlert(alert, now, transition === 'test', consoleUrl),
    ]),
  resend: {
    everyMs: ALERTMANAGER_REFRESH_MS,
    send: (receiver, firing, { post, now, consoleUrl }) =>
      postJson(
        post,
        alertsUrl(receiver.url),
        firing.map((a) => alertmanagerAlert(a, now, false, consoleUrl)),
      ),
  },
};
