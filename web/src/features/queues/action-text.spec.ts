import type { NodeActionResult, QueueActionResult } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { describeNode, oldestWaitingText, pauseText, statement } from './action-text';

const node = (over: Partial<NodeActionResult>): NodeActionResult => ({
  node: 'a',
  outcome: 'counted',
  messages: 12408,
  depthBefore: 12408,
  depthAfter: 12408,
  consumers: 0,
  paused: false,
  error: null,
  busy: false,
  reached: true,
  ...over,
});
const impact = (nodes: NodeActionResult[]): QueueActionResult => ({
  clusterId: '00000000-0000-4000-8000-000000000001',
  queue: 'orders.DLQ',
  action: 'purge',
  dryRun: true,
  messages: nodes.reduce((n, r) => n + (r.messages ?? 0), 0),
  nodes,
  at: '2026-12-01T10:00:00.000Z',
});

describe('what a queue action says', () => {
  it('states the count the broker gave and where, as the confirmation reads', () => {
    expect(statement('purge', 'orders.DLQ', impact([node({})]))).toBe(
      'Purge 12,408 messages from orders.DLQ on node a?',
    );
    expect(
      statement(
        'delete',
        'orders.DLQ',
        impact([node({ messages: 1 }), node({ node: 'b', outcome: 'absent', messages: null })]),
      ),
    ).toBe('Delete orders.DLQ on node a, with the 1 message it holds?');
  });

  it('says a retry sends back at most the depth: the broker keeps what has no queue to go back to', () => {
    expect(statement('retry', 'orders.DLQ', impact([node({ messages: 12 })]))).toBe(
      'Send up to 12 messages from orders.DLQ back to the queues they came from, on node a?',
    );
  });

  it("says what each node did, the broker's refusal and a busy lock apart", () => {
    expect(describeNode(node({ outcome: 'done', messages: 3, depthBefore: 3, depthAfter: 0 }))).toBe(
      'a: done, 3 messages removed (depth 3 → 0)',
    );
    // A send's message went in: it was not removed.
    expect(
      describeNode(node({ outcome: 'done', messages: 1, depthBefore: null, depthAfter: null }), 'sent'),
    ).toBe('a: done, 1 message sent');
    expect(describeNode(node({ outcome: 'failed', error: 'AMQ229245: busy', busy: true }))).toBe(
      'a: busy, try again shortly (AMQ229245: busy)',
    );
    expect(describeNode(node({ outcome: 'absent' }))).toBe('a: the queue is not there');
  });
});

describe('a pause', () => {
  it('says whether it survives a restart where Studio knows, and that it cannot know otherwise', () => {
    expect(pauseText({ paused: false, pause: null })).toBeNull();
    expect(pauseText({ paused: true, pause: null })).toMatch(/not through Studio/);
    expect(
      pauseText({ paused: true, pause: { persist: true, by: 'ops', at: '2026-12-01T10:00:00.000Z' } }),
    ).toMatch(/^paused, survives a restart \(by ops at /);
    expect(
      pauseText({ paused: true, pause: { persist: false, by: null, at: '2026-12-01T10:00:00.000Z' } }),
    ).toMatch(/^paused until a broker restart \(by someone at /);
  });
});

describe('the oldest waiting message', () => {
  it('says how long it has waited, and nothing where the broker could not say', () => {
    expect(oldestWaitingText(null, Date.now())).toBe('—');
    expect(oldestWaitingText('2026-12-01T10:00:00.000Z', Date.parse('2026-12-01T10:12:30.000Z'))).toMatch(
      /^12 min \(sent /,
    );
  });
});
