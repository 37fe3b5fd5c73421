import type { Alert } from '@artemis-studio/contracts';

/** A firing depth alert as the courier receives it, for the shapes its receivers are sent. */
export const anAlert = (over: Partial<Alert> = {}): Alert => ({
  id: 'a1',
  clusterId: 'c1',
  clusterName: 'prod',
  ruleId: 'r1',
  ruleName: 'orders backlog',
  kind: 'queue-depth',
  severity: 'critical',
  labels: {},
  subject: 'orders',
  state: 'firing',
  value: 120,
  threshold: 100,
  description: 'Queue orders holds 120 messages (threshold 100).',
  startedAt: '2026-12-01T10:00:00.000Z',
  firedAt: '2026-12-01T10:01:00.000Z',
  endedAt: null,
  endReason: null,
  lastEvaluatedAt: '2026-12-01T10:05:00.000Z',
  silencedBy: null,
  ...over,
});
