import type { Alert, DeliveryTransition } from '@artemis-studio/contracts';

/** "FIRING: orders backlog on orders.eu (prod)": the line every shape leads with. */
export function headline(transition: DeliveryTransition, alert: Alert): string {
  return `${transition.toUpperCase()}: ${alert.ruleName} on ${alert.subject} (${alert.clusterName})`;
}

/** Where a notification leads in the console: the alert's page, and the incident around it. */
export interface ConsoleLinks {
  page: string;
  /** The incident view opened on the alert (docs/alerting.md, "Incidents"); none for a receiver's test. */
  incident: string | null;
}

/**
 * The alert's page in the console, where it is charted with its events, and its incident; for a
 * receiver's test, the cluster's Alerting screen. Null when the console's URL is not set
 * (STUDIO_CONSOLE_URL).
 */
export function consoleLinks(
  consoleUrl: string | null,
  transition: DeliveryTransition,
  alert: Alert,
): ConsoleLinks | null {
  if (!consoleUrl) return null;
  const cluster = `${consoleUrl}/clusters/${alert.clusterId}`;
  return transition === 'test'
    ? { page: `${cluster}/alerting`, incident: null }
    : { page: `${cluster}/alerts/${alert.id}`, incident: `${cluster}/incident?alert=${alert.id}` };
}

/** The alert's figures, in the order a person on call reads them, and its page and incident when known. */
export function facts(alert: Alert, links: ConsoleLinks | null = null): [string, string][] {
  return [
    ['Cluster', alert.clusterName],
    ['Subject', alert.subject],
    ['Severity', alert.severity],
    ['Since', alert.firedAt ?? alert.startedAt],
    ...(alert.endedAt
      ? ([['Ended', `${alert.endedAt} (${alert.endReason ?? ''})`]] as [string, string][])
      : []),
    ...(links ? ([['In Studio', links.page]] as [string, string][]) : []),
    ...(links?.incident ? ([['Incident', links.incident]] as [string, string][]) : []),
  ];
}
