import { RpcError } from '@artemis-studio/bus';
import type {
  MessageJob,
  MessageJobNode,
  MessageJobStartCall,
  MessageJobStatus,
} from '@artemis-studio/contracts';
import type { NewMessageJob } from '@artemis-studio/db';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { BrokerLanes } from '../jolokia/broker-lanes';
import { MessageJobs, type JobStore } from './message-jobs';
import { selectorOf } from './message-job-calls';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';

const cluster: ClusterNodes = {
  target: { id: 'c' },
  liveNodes: () => [{ id: 'a', name: 'a', jolokiaUrl: 'http://a', amqpUrl: null }],
  brokerName: () => 'a',
  jolokiaTarget: (node) => ({ nodeKey: node.id, jolokiaUrl: node.jolokiaUrl, origin: 'http://x' }),
};

/**
 * A broker holding `depth` messages in `orders` (and an empty `elsewhere`), moving and removing as
 * the real one does; `fail` may answer a call of an operation differently.
 */
function fakeBroker(
  depth: number,
  fail: (operation: string, call: number) => JolokiaResponse | 'throw' | null = () => null,
) {
  const state = { depth, moved: 0, calls: 0 };
  const answer = (r: JolokiaRequest): JolokiaResponse => {
    if (r.type === 'read') {
      if (r.mbean.includes('queue="nowhere"')) return { status: 404, error: 'not found' };
      const queue = /queue="([^"]+)"/.exec(r.mbean)?.[1] ?? 'orders';
      const attributes = { MessageCount: queue === 'orders' ? state.depth : state.moved, Address: queue };
      return r.attribute === 'MessageCount'
        ? { status: 200, value: state.depth }
        : { status: 200, value: { [`mbean:${queue}`]: attributes } };
    }
    const failed = fail(r.operation, state.calls);
    if (failed === 'throw') throw new Error('socket hang up');
    if (failed) return failed;
    const [first, , , , count] = r.arguments as [unknown, unknown, unknown, unknown, number];
    switch (r.operation) {
      case 'getAddressSettingsAsJSON(java.lang.String)':
        return { status: 200, value: JSON.stringify({ managementBrowsePageSize: 200 }) };
      case 'countMessages(java.lang.String)':
        return { status: 200, value: Math.min(state.depth, 200) };
      case 'moveMessages(int,java.lang.String,java.lang.String,boolean,int)': {
        const n = Math.min(count, state.depth);
        state.depth -= n;
        state.moved += n;
        return { status: 200, value: n };
      }
      case 'removeMessages(int,java.lang.String)': {
        const n = state.depth;
        state.depth = 0;
        return { status: 200, value: n };
      }
      case 'removeMessage(long)':
        return { status: 200, value: first !== '404' };
      default:
        return { status: 400, error: `unexpected ${r.operation}` };
    }
  };
  return {
    state,
    jolokia: {
      bulk: async (_target: unknown, requests: JolokiaRequest[]) => {
        await Promise.resolve();
        const answers = requests.map(answer);
        state.calls++;
        return answers;
      },
    },
  };
}

/** The job's row, kept in memory; `cancelAfter` asks it to stop once that many batches are recorded. */
function memoryStore(cancelAfter = Infinity) {
  const rows = new Map<string, MessageJob>();
  let recorded = 0;
  const store: JobStore = {
    insert: async (job: NewMessageJob) => {
      const row: MessageJob = {
        ...job,
        status: 'running',
        processed: 0,
        inFlight: null,
        cancelRequested: false,
        error: null,
        startedAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        finishedAt: null,
      };
      rows.set(job.id, row);
      return row;
    },
    progress: async (id: string, nodes: MessageJobNode[]) => {
      rows.set(id, { ...rows.get(id)!, nodes });
      return { cancelRequested: ++recorded >= cancelAfter, interrupted: false };
    },
    finish: async (
      id,
      end: { status: MessageJobStatus; nodes: MessageJobNode[]; error: string | null; inFlight?: number },
    ) => {
      const row = {
        ...rows.get(id)!,
        status: end.status,
        nodes: end.nodes,
        error: end.error,
        inFlight: end.inFlight ?? null,
        processed: end.nodes.reduce((s, n) => s + n.processed, 0),
      };
      rows.set(id, row);
      return row;
    },
  };
  return { store, rows };
}

const call = (job: Partial<MessageJobStartCall['job']>): MessageJobStartCall => ({
  clusterId: '00000000-0000-4000-8000-000000000001',
  jobId: '00000000-0000-4000-8000-000000000002',
  queue: 'orders',
  requestedBy: 'ops',
  job: { kind: 'move', to: 'elsewhere', batchSize: 100, ...job },
});

function jobs(broker: ReturnType<typeof fakeBroker>, store: JobStore) {
  return new MessageJobs({
    jolokia: broker.jolokia,
    lanes: new BrokerLanes(),
    store,
    signal: () => undefined,
    log: { warn: () => undefined },
    pacing: { pauseMs: 0, busyWaitMs: 0 },
  });
}

async function run(
  broker: ReturnType<typeof fakeBroker>,
  job: Partial<MessageJobStartCall['job']>,
  cancelAfter?: number,
  stopped = new AbortController().signal,
) {
  const { store, rows } = memoryStore(cancelAfter);
  const sut = jobs(broker, store);
  const started = await sut.start(cluster, call(job), stopped);
  await sut.whenIdle();
  return { started, ended: rows.get(started.id)! };
}

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

  it('counts chosen messages the broker could not reach, and deletes by filter in one call', async () => {
    const chosen = await run(fakeBroker(10), {
      kind: 'delete',
      to: undefined,
      messageIds: ['1', '404', '3'],
      node: 'a',
    });
    expect(chosen.ended.nodes[0]).toEqual(expect.objectContaining({ processed: 2, notReached: 1 }));

    const filtered = await run(fakeBroker(900), { kind: 'delete', to: undefined, filter: "x = 'y'" });
    expect(filtered.started).toEqual(
      expect.objectContaining({ cancellable: false, planned: { count: 200, atLeast: true } }),
    );
    expect(filtered.ended).toEqual(expect.objectContaining({ status: 'done', processed: 900 }));
    expect(filtered.ended.nodes[0].batches).toBe(1);
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
