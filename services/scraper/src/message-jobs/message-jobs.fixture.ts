import type {
  MessageJob,
  MessageJobNode,
  MessageJobStartCall,
  MessageJobStatus,
} from '@artemis-studio/contracts';
import type { NewMessageJob } from '@artemis-studio/db';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { BrokerLanes } from '../jolokia/broker-lanes';
import { MessageJobs } from './message-jobs';
import type { JobStore } from './message-job-deps';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';

/** Fakes for the job runner's unit tests: a broker in memory, and the job's row in memory. */

export const cluster: ClusterNodes = {
  target: { id: 'c' },
  liveNodes: () => [{ id: 'a', name: 'a', jolokiaUrl: 'http://a', amqpUrl: null }],
  brokerName: () => 'a',
  amqpEndpoint: () => null,
  jolokiaTarget: (node) => ({ nodeKey: node.id, jolokiaUrl: node.jolokiaUrl, origin: 'http://x' }),
};

/**
 * A broker holding `depth` messages in `orders` (and an empty `elsewhere`), moving and removing as
 * the real one does; `fail` may answer a call of an operation differently.
 */
export function fakeBroker(
  depth: number,
  fail: (operation: string, call: number) => JolokiaResponse | 'throw' | null = () => null,
) {
  // `bounce`: the share of each move its consumer rejects at once, dead-lettered back into orders.
  // `trashed`: moved into a delete's trash queue and not emptied yet; `trashQueues`: made, not dropped.
  const state = {
    depth,
    moved: 0,
    calls: 0,
    consumers: 1,
    paused: false,
    bounce: 0,
    killed: 0,
    trashed: 0,
    trashQueues: 0,
  };
  const answer = (r: JolokiaRequest): JolokiaResponse => {
    if (r.type === 'read') {
      if (r.mbean.includes('queue="nowhere"')) return { status: 404, error: 'not found' };
      const queue = /queue="([^"]+)"/.exec(r.mbean)?.[1] ?? 'orders';
      const attributes = {
        MessageCount: queue === 'orders' ? state.depth : state.moved,
        Address: queue,
        ConsumerCount: queue === 'orders' ? 0 : state.consumers,
        Paused: queue === 'orders' ? false : state.paused,
        MessagesKilled: queue === 'orders' ? 0 : state.killed,
      };
      if (r.attribute !== 'MessageCount') return { status: 200, value: { [`mbean:${queue}`]: attributes } };
      return { status: 200, value: queue.startsWith('studio.trash.') ? state.trashed : state.depth };
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
        if (String(r.arguments[2]).startsWith('studio.trash.')) {
          state.depth -= n;
          state.trashed += n;
          return { status: 200, value: n };
        }
        const back = Math.round(n * state.bounce);
        state.depth += back - n;
        state.moved += n - back;
        state.killed += back;
        return { status: 200, value: n };
      }
      case 'createQueue(java.lang.String,boolean)':
        state.trashQueues++;
        return { status: 200, value: null };
      case 'removeAllMessages()': {
        const n = state.trashed;
        state.trashed = 0;
        return { status: 200, value: n };
      }
      case 'destroyQueue(java.lang.String,boolean,boolean)':
        state.trashQueues--;
        return { status: 200, value: null };
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

/**
 * The job's row, kept in memory; `cancelAfter` asks it to stop once that many batches are recorded,
 * `cancel()` at once. Every reason the job gave for waiting is kept in `waits`.
 */
export function memoryStore(cancelAfter = Infinity) {
  const rows = new Map<string, MessageJob>();
  const requests = new Map<string, NewMessageJob['request']>();
  const waits: (string | null)[] = [];
  let recorded = 0;
  let cancelled = false;
  const store: JobStore = {
    insert: async ({ request, ...job }: NewMessageJob) => {
      requests.set(job.id, request);
      const row: MessageJob = {
        ...job,
        resumable: false,
        resumes: 0,
        status: 'running',
        processed: 0,
        returned: 0,
        inFlight: null,
        cancelRequested: false,
        error: null,
        startedAt: new Date().toISOString(),
        updatedAt: new Date().toISOString(),
        finishedAt: null,
        waiting: null,
      };
      rows.set(job.id, row);
      return row;
    },
    progress: async (id: string, nodes: MessageJobNode[]) => {
      rows.set(id, { ...rows.get(id)!, nodes });
      return { cancelRequested: ++recorded >= cancelAfter || cancelled, interrupted: false };
    },
    waiting: async (id: string, reason: string | null) => {
      rows.set(id, { ...rows.get(id)!, waiting: reason });
      if (waits.at(-1) !== reason) waits.push(reason);
      return { cancelRequested: cancelled, interrupted: false };
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
        returned: end.nodes.reduce((s, n) => s + n.returned, 0),
        resumable: end.status === 'paused' && rows.get(id)!.chosen === null,
      };
      rows.set(id, row);
      return row;
    },
    withRequest: async (_clusterId, id) =>
      rows.has(id) ? { job: rows.get(id)!, request: requests.get(id) ?? null } : null,
    resume: async (id, nodes, planned) => {
      const row = rows.get(id);
      if (row?.status !== 'paused') return null;
      const resumed = { ...row, status: 'running' as const, nodes, planned, error: null, resumable: false };
      rows.set(id, { ...resumed, resumes: row.resumes + 1, finishedAt: null });
      return rows.get(id)!;
    },
  };
  return { store, rows, waits, cancel: () => (cancelled = true) };
}

export const call = (job: Partial<MessageJobStartCall['job']>): MessageJobStartCall => ({
  clusterId: '00000000-0000-4000-8000-000000000001',
  jobId: '00000000-0000-4000-8000-000000000002',
  queue: 'orders',
  requestedBy: 'ops',
  job: { kind: 'move', to: 'elsewhere', batchSize: 100, ...job },
});

export function jobs(broker: ReturnType<typeof fakeBroker>, store: JobStore) {
  return new MessageJobs({
    jolokia: broker.jolokia,
    lanes: new BrokerLanes(),
    store,
    signal: () => undefined,
    log: { warn: () => undefined },
    pacing: { pauseMs: 0, busyWaitMs: 0, gateCheckMs: 1, returnSettleMs: 0 },
  });
}

export async function run(
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
