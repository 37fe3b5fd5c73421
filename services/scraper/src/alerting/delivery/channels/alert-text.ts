import type { Alert, DeliveryTransition } from '@artemis-studio/contracts';

/** "FIRING: orders backlog on orders.eu (prod)": the line every shape leads with. */
export function headline(transition: DeliveryTransition, alert: Alert): string {
  return `${transition.toUpperCase()}: ${alert.ruleName} on ${alert.subject} (${alert.clusterName})`;
}

/**
 * The alert's page in the console, where it is charted with its events; for a receiver's test, the
 * cluster's Alerting screen. Null when the console's URL is not set (STUDIO_CONSOLE_URL).
 */
export function alertLink(
  consoleUrl: string | null,
  transition: DeliveryTransition,
  alert: Alert,
): string | null {
  if (!consoleUrl) return null;
  const cluster = `${consoleUrl}/clusters/${alert.clusterId}`;
  return transition === 'test' ? `${cluster}/alerting` : `${cluster}/alerts/${alert.id}`;
}

/** The alert's figures, in the order a person on call reads them, and its page when known. */
export function facts(alert: Alert, link: string | null = null): [string, string][] {
  return [
    ['Cluster', alert.clusterName],
    ['Subject', alert.subject],
    ['Severity', alert.severity],
    ['Since', alert.firedAt ?? alert.startedAt],
    ...(alert.endedAt
      ? ([['Ended', `${alert.endedAt} (${alert.endReason ?? ''})`]] as [string, string][])
      : []),
    ...(link ? ([['In Studio', link]] as [string, string][]) : []),
  ];
}
