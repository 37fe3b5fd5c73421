import type { Alert, DeliveryTransition } from '@artemis-studio/contracts';

/** "FIRING: orders backlog on orders.eu (prod)": the line every shape leads with. */
export function headline(transition: DeliveryTransition, alert: Alert): string {
  return `${transition.toUpperCase()}: ${alert.ruleName} on ${alert.subject} (${alert.clusterName})`;
}

/** The alert's figures, in the order a person on call reads them. */
export function facts(alert: Alert): [string, string][] {
  return [
    ['Cluster', alert.clusterName],
    ['Subject', alert.subject],
    ['Severity', alert.severity],
    ['Since', alert.firedAt ?? alert.startedAt],
    ...(alert.endedAt
      ? ([['Ended', `${alert.endedAt} (${alert.endReason ?? ''})`]] as [string, string][])
      : []),
  ];
}
