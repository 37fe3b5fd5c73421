import { z } from 'zod';
import { AlertRuleSchema, CreateAlertRuleRequestSchema, type CreateAlertRuleInput } from './alert-rules';

/**
 * The rules offered on a cluster's Alerting screen until saved (each is off until an admin saves
 * it): what an on-call team wants of any cluster, where nothing about its queues is known yet.
 * Fixed-threshold queue rules on every queue are left out: DLQ and expiry queues hold old messages
 * with no consumer by design, and would fire at once. The baseline rule is not: it learns each
 * queue's own usual depth for the hour (a DLQ's too), and says nothing until it has two weeks of it.
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
  {
    name: 'Depth unusual for the hour',
    kind: 'queue-depth-baseline',
    threshold: 5,
    forSeconds: 600,
    severity: 'warning',
  },
];

/** `GET …/alert-rules/suggested`: each suggested rule as it would be saved, and whether it is. */
export const SuggestedAlertRulesSchema = z.object({
  items: z.array(
    z.object({
      rule: CreateAlertRuleRequestSchema,
      /** A rule of this name is saved on the cluster already (perhaps changed since). */
      saved: z.boolean(),
    }),
  ),
});
export type SuggestedAlertRules = z.infer<typeof SuggestedAlertRulesSchema>;

const SUGGESTED_NAMES = SUGGESTED_ALERT_RULES.map((r) => r.name) as [string, ...string[]];

/** `POST …/alert-rules/suggested`: saves the suggested rules of these names (at registration, or later). */
export const SaveSuggestedAlertRulesSchema = z
  .object({ names: z.array(z.enum(SUGGESTED_NAMES)).min(1).max(SUGGESTED_NAMES.length) })
  .strict();
export type SaveSuggestedAlertRules = z.infer<typeof SaveSuggestedAlertRulesSchema>;

export const SavedSuggestedAlertRulesSchema = z.object({
  created: z.array(AlertRuleSchema),
  /** Asked for, but a rule of that name was there already: left as it is. */
  alreadySaved: z.array(z.string()),
});
export type SavedSuggestedAlertRules = z.infer<typeof SavedSuggestedAlertRulesSchema>;
