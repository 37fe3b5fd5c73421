import type { Alert } from '@artemis-studio/contracts';
import { actionMoment, alertMoments, inOrder, subjectsOf } from './incident-timeline';

const alert = (over: Partial<Alert>): Alert => ({
  id: '00000000-0000-4000-8000-000000000001',
  clusterId: '00000000-0000-4000-8000-000000000002',
  clusterName: 'prod',
  ruleId: '00000000-0000-4000-8000-000000000003',
  ruleName: 'Backlog',
  kind: 'queue-depth',
  severity: 'warning',
  labels: {},
  subject: 'orders',
  state: 'firing',
  value: 10,
  threshold: 5,
  description: 'orders holds 10 messages',
  startedAt: '2026-12-08T10:00:00.000Z',
  firedAt: '2026-12-08T10:00:00.000Z',
  endedAt: null,
  endReason: null,
  lastEvaluatedAt: '2026-12-08T10:05:00.000Z',
  silencedBy: null,
  ...over,
});

describe("an incident's timeline", () => {
  it('tells an alert that fired at once by its firing alone, and one that cleared before firing as such', () => {
    expect(alertMoments(alert({})).map((m) => m.text)).toEqual(['Backlog (warning) fired (threshold 5)']);
    expect(
      alertMoments(
        alert({ firedAt: null, endedAt: '2026-12-08T10:01:00.000Z', endReason: 'the condition cleared' }),
      ).map((m) => m.text),
    ).toEqual([
      'Backlog (warning): condition held',
      'Backlog (warning) cleared before firing: the condition cleared',
    ]);
  });

  it('names an action by its counts only', () => {
    const at = new Date('2026-12-08T10:02:00Z');
    expect(
      actionMoment({
        at,
        action: 'queue.purge',
        actor: 'bob',
        target: 'orders',
        detail: { removed: 3, filter: 'a=1' },
      }).text,
    ).toBe('queue.purge of orders by bob (removed 3)');
  });

  it('charts each subject once, and none for links or Studio itself', () => {
    expect(
      subjectsOf([
        alert({}),
        alert({ kind: 'queue-oldest-message' }),
        alert({ kind: 'node-unreachable', subject: 'n1' }),
        alert({ kind: 'link-down', subject: 'n1/cluster' }),
        alert({ kind: 'studio-events-dropped', subject: 'events' }),
      ]),
    ).toEqual([
      { kind: 'queue', name: 'orders' },
      { kind: 'node', name: 'n1' },
    ]);
  });

  it('orders by time, an alert after the events and actions of its instant, and drops what is outside', () => {
    const m = (at: string, kind: 'alert' | 'event' | 'action') => ({
      at,
      kind,
      subject: null,
      text: kind,
      alertId: null,
    });
    const from = new Date('2026-12-08T10:00:00Z');
    const to = new Date('2026-12-08T11:00:00Z');
    expect(
      inOrder(
        [
          m('2026-12-08T10:30:00Z', 'alert'),
          m('2026-12-08T10:30:00Z', 'event'),
          m('2026-12-08T09:00:00Z', 'action'),
        ],
        from,
        to,
      ).map((x) => x.kind),
    ).toEqual(['event', 'alert']);
  });
});
