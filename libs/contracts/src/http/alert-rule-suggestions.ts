import type { CreateAlertRuleInput } from './alert-rules';

/**
 * The rules offered on a cluster's Alerting screen until saved (each is off until an admin saves
 * it): what an on-call team wants of any cluster, where nothing about its queues is known yet.
 * Queue rules on every queue are left out: DLQ and expiry queues hold old messages with no
 * consumer by design, and would fire at once.
 */
export const SUGGESTED_ALERT_RULES: readonly CreateAlertRuleInput[] = [
  { name: 'Node unreachable', kind: 'node-unreachable', forSeconds: 60, severity: 'critical' },
  { name: 'Backup not in sync', kind: 'node-backup-unsynced', forSeconds: 300, severity: 'critical' },
  { name: 'Failover or failback', kind: 'node-role-changed', threshold: 900, severity: 'warning' },
  {
    name: 'Journal disk nearly full',
    kind: 'node-disk-usage',
    threshold: 0.85,
    forSeconds: 300,
    severity: 'warning',
  },
  {
    name: 'Journal disk full within the hour',
    kind: 'node-disk-full-forecast',
    threshold: 3600,
    forSeconds: 300,
    severity: 'critical',
  },
  {
    name: 'Address memory high',
    kind: 'node-address-memory',
    threshold: 0.8,
    forSeconds: 300,
    severity: 'warning',
  },
  { name: 'Address paging', kind: 'address-paging', forSeconds: 300, severity: 'warning' },
  {
    name: 'Address full within 30 minutes',
    kind: 'address-full-forecast',
    threshold: 1800,
    forSeconds: 120,
    severity: 'warning',
  },
  { name: 'Stuck consumer', kind: 'queue-stuck-consumer', forSeconds: 300, severity: 'critical' },
  { name: 'Messages stranded on a node', kind: 'queue-stranded', forSeconds: 300, severity: 'warning' },
  { name: 'Cluster link down', kind: 'link-down', forSeconds: 120, severity: 'critical' },
  {
    name: 'Cluster link not draining',
    kind: 'link-backlog',
    threshold: 300,
    forSeconds: 60,
    severity: 'warning',
  },
  { name: 'Node left the cluster', kind: 'link-node-left', forSeconds: 120, severity: 'critical' },
  {
    name: 'Broker events not seen',
    kind: 'studio-notifications-unavailable',
    forSeconds: 300,
    severity: 'warning',
  },
  { name: 'Broker events lost', kind: 'studio-events-dropped', threshold: 900, severity: 'warning' },
  { name: 'No notifier', kind: 'studio-notifier-unowned', forSeconds: 120, severity: 'critical' },
  { name: 'No scraper', kind: 'studio-scraper-unowned', forSeconds: 60, severity: 'critical' },
  { name: 'Events unobserved', kind: 'studio-unobserved', threshold: 900, severity: 'info' },
  {
    name: 'Redrive paused on bounce-back',
    kind: 'studio-redrive-paused',
    threshold: 3600,
    severity: 'warning',
  },
  { name: 'Dead letters arriving', kind: 'queue-receiving', subjects: '*DLQ*', severity: 'warning' },
];
