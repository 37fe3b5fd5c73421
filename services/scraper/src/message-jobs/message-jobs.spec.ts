import { RpcError } from '@artemis-studio/bus';
import { selectorOf } from './message-job-calls';
import { cluster, call, fakeBroker, jobs, memoryStore, run } from './message-jobs.fixture';

describe('MessageJobs', () => {
  it('moves in batches until the broker finds fewer than a batch, counting each', async () => {
    const broker = fakeBroker(250);
    const { started, ended } = await run(broker, {});
    expect(started.planned).toEqual({ count: 250, atLeast: false });
    expect(ended).toEqual(expect.objectContaining({ status: 'done', processed: 250, error: null }));
    expect(ended.nodes[0].batches).toBe(3);
    expect(broker.state).toEqual(expect.objectContaining({ depth: 0, moved: 250 }));
  });

  it('stops between batches when cancelled, with the rest still in the queue', async () => {
    const broker = fakeBroker(1000);
    const { ended } = await run(broker, {}, 3);
    expect(ended).toEqual(expect.objectContaining({ status: 'cancelled', processed: 300 }));
    expect(broker.state.depth).toBe(700);
  });

  it('tries a busy batch again, and fails one the broker refuses, saying what was done', async () => {
    const busy = fakeBroker(150, (op, n) =>
      op.startsWith('moveMessages') && n === 3
        ? { status: 500, error: 'AMQ229245: Management controller is busy' }
        : null,
    );
    expect((await run(busy, {})).ended).toEqual(expect.objectContaining({ status: 'done', processed: 150 }));

    const refused = fakeBroker(250, (op, n) =>
      op.startsWith('moveMessages') && n >= 4
        ? { status: 500, error: 'AMQ229049: No queue found for elsewhere' }
        : null,
    );
    const { ended } = await run(refused, {});
    expect(ended).toEqual(
      expect.objectContaining({
        status: 'failed',
        processed: 100,
        error: 'a: AMQ229049: No queue found for elsewhere',
      }),
    );
  });

  it('says a batch that got no answer may have happened (inFlight), and stops when the cluster is let go', async () => {
    const lost = fakeBroker(250, (op, n) => (op.startsWith('moveMessages') && n >= 4 ? 'throw' : null));
    expect((await run(lost, {})).ended).toEqual(
      expect.objectContaining({ status: 'failed', processed: 100, inFlight: 100 }),
    );

    const stop = new AbortController();
    stop.abort();
    expect((await run(fakeBroker(250), {}, undefined, stop.signal)).ended).toEqual(
      expect.objectContaining({ status: 'interrupted', processed: 0 }),
    );
  });

  it('counts chosen messages the broker could not reach', async () => {
    const chosen = await run(fakeBroker(10), {
      kind: 'delete',
      to: undefined,
      messageIds: ['1', '404', '3'],
      node: 'a',
    });
    expect(chosen.ended.nodes[0]).toEqual(expect.objectContaining({ processed: 2, notReached: 1 }));
  });

  it('deletes by filter in batches through a trash queue it empties each time and drops at the end', async () => {
    const broker = fakeBroker(900);
    const filtered = await run(broker, { kind: 'delete', to: undefined, filter: "x = 'y'" });
    expect(filtered.started).toEqual(
      expect.objectContaining({ cancellable: true, planned: { count: 200, atLeast: true } }),
    );
    expect(filtered.ended).toEqual(expect.objectContaining({ status: 'done', processed: 900 }));
    expect(filtered.ended.nodes[0].batches).toBe(10);
    expect(broker.state).toEqual(expect.objectContaining({ depth: 0, trashed: 0, trashQueues: 0 }));

    const cancelled = fakeBroker(900);
    expect((await run(cancelled, { kind: 'delete', to: undefined }, 2)).ended).toEqual(
      expect.objectContaining({ status: 'cancelled', processed: 200 }),
    );
    expect(cancelled.state).toEqual(expect.objectContaining({ depth: 700, trashQueues: 0 }));
  });

  it('leaves a batch it could not empty in the trash queue, and says so', async () => {
    const broker = fakeBroker(250, (op, n) =>
      op === 'removeAllMessages()' && n >= 4 ? { status: 500, error: 'AMQ229000: no' } : null,
    );
    const { ended } = await run(broker, { kind: 'delete', to: undefined });
    expect(ended.status).toBe('failed');
    expect(ended.processed).toBe(100);
    expect(ended.error).toMatch(
      /the last 100 matching messages were moved to studio\.trash\..*, and wait there/,
    );
    expect(broker.state).toEqual(expect.objectContaining({ trashed: 100, trashQueues: 1 }));
  });

  it('refuses a target that is nowhere, or the queue itself, before anything is recorded', async () => {
    const { store, rows } = memoryStore();
    const sut = jobs(fakeBroker(5), store);
    const never = new AbortController().signal;
    await expect(sut.start(cluster, call({ to: 'nowhere' }), never)).rejects.toBeInstanceOf(RpcError);
    await expect(sut.start(cluster, call({ to: 'orders' }), never)).rejects.toThrow(/in that queue already/);
    expect(rows.size).toBe(0);
  });
});

describe('a job selector', () => {
  it('narrows a retry to its dead-letter group, quotes its name, and keeps the operator filter', () => {
    expect(selectorOf({ origin: "o'rders" })).toBe("_AMQ_ORIG_QUEUE = 'o''rders'");
    expect(selectorOf({ origin: 'orders', filter: "a = 1 OR b = 'x'" })).toBe(
      "(_AMQ_ORIG_QUEUE = 'orders') AND (a = 1 OR b = 'x')",
    );
    expect(selectorOf({})).toBe('');
  });
});
