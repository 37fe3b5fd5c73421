import { alertmanagerAlert, backoffMs } from './alert-courier';
import { anAlert } from './alert.fixture';

const alert = anAlert({ labels: { team: 'payments', alertname: 'not this one' } });
const now = new Date('2026-12-01T10:05:00.000Z');

describe('what Alertmanager is sent', () => {
  it("labels the alert by rule, cluster, severity and queue, the rule's own labels beside them", () => {
    expect(alertmanagerAlert(alert, now).labels).toEqual({
      alertname: 'orders backlog',
      cluster: 'prod',
      severity: 'critical',
      kind: 'queue-depth',
      queue: 'orders',
      team: 'payments',
    });
  });

  it('keeps a firing alert alive five minutes ahead, and ends a resolved one when it ended', () => {
    expect(alertmanagerAlert(alert, now)).toMatchObject({
      startsAt: '2026-12-01T10:01:00.000Z',
      endsAt: '2026-12-01T10:10:00.000Z',
    });
    const ended = { ...alert, state: 'resolved' as const, endedAt: '2026-12-01T10:04:00.000Z' };
    expect(alertmanagerAlert(ended, now).endsAt).toBe('2026-12-01T10:04:00.000Z');
  });

  it('names a node alert by node', () => {
    expect(
      alertmanagerAlert({ ...alert, kind: 'node-unreachable', subject: 'primary' }, now).labels.node,
    ).toBe('primary');
  });
});

describe('delivery backoff', () => {
  it('doubles from two seconds and stays at five minutes', () => {
    expect([1, 2, 3, 8, 9, 20].map(backoffMs)).toEqual([2_000, 4_000, 8_000, 256_000, 300_000, 300_000]);
  });
});
