import type { StartMessageJobRequest } from '@artemis-studio/contracts';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import type { QueueHolder } from '../broker-actions/queue-holders';
import { matchedBatches, retriesByOrigin, type Batch } from './message-job-batches';
import { selectorOf } from './message-job-calls';

const holder = { found: { mbean: 'queue="DLQ"' } } as QueueHolder;

/** A dead-letter queue in memory: how many messages came from each queue, moved as the broker moves. */
function deadLetters(
  origins: Record<string, number>,
  moves: (origin: string, n: number) => JolokiaResponse | null,
) {
  const answer = (r: JolokiaRequest): JolokiaResponse => {
    if (r.type !== 'exec') throw new Error('a read');
    if (r.operation === 'countMessages(java.lang.String,java.lang.String)') {
      expect(r.arguments).toEqual(['_AMQ_ORIG_QUEUE IS NOT NULL', '_AMQ_ORIG_QUEUE']);
      const left = Object.fromEntries(Object.entries(origins).filter(([, n]) => n > 0));
      return { status: 200, value: JSON.stringify(left) };
    }
    const [batch, selector, target] = r.arguments as [number, string, string];
    expect(selector).toBe(`(_AMQ_ORIG_QUEUE = '${target}') AND (_AMQ_ORIG_QUEUE IS NOT NULL)`);
    const n = Math.min(batch, origins[target] ?? 0);
    const instead = moves(target, n);
    if (instead) return instead;
    origins[target] -= n;
    return { status: 200, value: n };
  };
  return (batch: Batch) => batch.outcome(batch.requests.map(answer));
}

function drive(origins: Record<string, number>, moves: Parameters<typeof deadLetters>[1] = () => null) {
  const job: StartMessageJobRequest = { kind: 'retry', batchSize: 100 };
  const run = deadLetters(origins, moves);
  const outcomes = [];
  for (const batch of retriesByOrigin(
    { job, selector: selectorOf(job), target: null, trash: null },
    holder,
  )) {
    const outcome = run(batch);
    outcomes.push(outcome);
    if ('refused' in outcome || outcome.last) break;
  }
  return outcomes;
}

describe('a retry by filter, each message back to its own queue', () => {
  it('moves the biggest group a batch at a time, asking the broker for the groups in the same call', () => {
    const origins = { orders: 250, payments: 30 };
    const outcomes = drive(origins);
    expect(outcomes.map((o) => ('processed' in o ? o.processed : o))).toEqual([0, 100, 100, 50, 30]);
    expect(outcomes.at(-1)).toMatchObject({ last: true, error: null });
    expect(origins).toEqual({ orders: 0, payments: 0 });
  });

  it('ends at once when no matching message has a queue to go back to', () => {
    expect(drive({})).toEqual([{ processed: 0, notReached: 0, error: null, last: true }]);
  });

  it("stops with the broker's words when it refuses a group, and when it moves none of one", () => {
    expect(
      drive({ gone: 5 }, () => ({ status: 500, error: 'AMQ229017: Queue gone does not exist' })),
    ).toEqual([
      expect.objectContaining({ processed: 0 }),
      { refused: 'retrying to gone: AMQ229017: Queue gone does not exist' },
    ]);
    const stuck = drive({ orders: 5 }, () => ({ status: 200, value: 0 }));
    expect(stuck.at(-1)).toEqual({
      processed: 0,
      notReached: 0,
      error: 'the broker moved none of the 5 messages of orders it counted',
      last: true,
    });
  });
});

describe('matchedBatches', () => {
  it('names the matches a call at a time, and counts those the broker no longer had', () => {
    const job: StartMessageJobRequest = { kind: 'move', to: 'orders', batchSize: 2 };
    const queue = new Set(['ID:a', 'ID:b', 'ID:d', 'ID:e']); // ID:c was consumed since the scan
    const selectors: string[] = [];
    const outcomes = [];
    for (const batch of matchedBatches(
      { job, selector: "region = 'eu'", target: 'orders', trash: null },
      holder,
      ['ID:a', 'ID:b', 'ID:c', 'ID:d', 'ID:e'],
    )) {
      const [request] = batch.requests;
      if (request.type !== 'exec') throw new Error('a read');
      const [limit, selector] = request.arguments as [number, string];
      selectors.push(selector);
      const named = [...selector.matchAll(/'(ID:[a-z])'/g)].map((m) => m[1]);
      const moved = named.filter((id) => queue.delete(id)).slice(0, limit);
      const outcome = batch.outcome([{ status: 200, value: moved.length }]);
      outcomes.push(outcome);
      if ('refused' in outcome || outcome.last) break;
    }
    expect(selectors).toEqual([
      "(region = 'eu') AND AMQUserID IN ('ID:a', 'ID:b')",
      "(region = 'eu') AND AMQUserID IN ('ID:c', 'ID:d')",
      "(region = 'eu') AND AMQUserID IN ('ID:e')",
    ]);
    expect(outcomes).toEqual([
      { processed: 2, notReached: 0, error: null, last: false },
      { processed: 1, notReached: 1, error: null, last: false },
      { processed: 1, notReached: 0, error: null, last: true },
    ]);
  });
});
