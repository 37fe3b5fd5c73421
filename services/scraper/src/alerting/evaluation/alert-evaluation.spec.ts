import { observedQueue } from '../../queues/queue-observation.fixture';
import type { ObservedCluster } from '../../polling/tick-observer';
import type { OpenAlert } from '../rules/alert-steps';
import { AlertEvaluation, type AlertEvaluationDeps } from './alert-evaluation';
import type { LoadedRule, TierEvaluation } from './alert-evaluation.repository';

const cluster: ObservedCluster = {
  id: '00000000-0000-4000-8000-000000000001',
  name: 'prod',
  nodes: [
    { id: 'n1-id', name: 'n1' },
    { id: 'n2-id', name: 'n2' },
  ] as ObservedCluster['nodes'],
};
const now = new Date('2026-12-05T10:00:00Z');

const rule = (kind: LoadedRule['kind']): LoadedRule => ({
  id: `rule-${kind}`,
  kind,
  subjects: '*',
  threshold: 5,
  forSeconds: 0,
  severity: 'critical',
  retired: null,
});

/** An evaluation whose store holds the given rules and open alerts, recording what each apply gets. */
function evaluationWith(
  rules: LoadedRule[],
  open: OpenAlert[] = [],
  queueBaselines: AlertEvaluationDeps['queueBaselines'] = async () => new Map(),
) {
  const applied: { steps: unknown[]; evaluation: TierEvaluation }[] = [];
  const evaluation = new AlertEvaluation({
    store: {
      load: async () => ({ rules, open }),
      apply: async (_clusterId, steps, _now, recorded) => {
        applied.push({ steps: [...steps], evaluation: recorded });
        return [];
      },
    },
    committed: () => undefined,
    intervals: () => ({ tierAMs: 5_000, tierBMs: 30_000 }),
    studioFacts: async () => {
      throw new Error('not asked');
    },
    addressHistory: async () => [],
    diskHistory: async () => [],
    queueBaselines,
    log: { warn: () => undefined },
  });
  return { evaluation, applied };
}

describe('a tier-B evaluation', () => {
  it('records a tick whose every node was read as evaluated, with tier B’s own interval', async () => {
    const { evaluation, applied } = evaluationWith([rule('queue-depth')]);
    await evaluation.afterQueues(cluster, now, [
      {
        nodeId: 'n1-id',
        queues: [observedQueue('orders', { messageCount: 9 })],
        unread: [],
        addresses: { addresses: [], unread: [] },
      },
      { nodeId: 'n2-id', queues: [], unread: [], addresses: { addresses: [], unread: [] } },
    ]);
    expect(applied).toHaveLength(1);
    expect(applied[0].evaluation).toEqual({ scope: 'tier-b', intervalMs: 30_000, rules: 1, unknown: null });
    expect(applied[0].steps).toEqual([expect.objectContaining({ kind: 'open', subject: 'orders' })]);
  });

  it('records a tick that could not read a node as unknown, naming the node, and keeps its alerts as they are', async () => {
    const open: OpenAlert = {
      id: 'alert-1',
      ruleId: 'rule-queue-depth',
      subject: 'orders',
      state: 'firing',
      startedAt: new Date(now.getTime() - 60_000),
    };
    const { evaluation, applied } = evaluationWith([rule('queue-depth')], [open]);
    await evaluation.afterQueues(cluster, now, { node: 'n2', reason: 'connect ECONNREFUSED 127.0.0.1:8662' });
    expect(applied[0].evaluation.unknown).toBe(
      'node n2 could not be read: connect ECONNREFUSED 127.0.0.1:8662',
    );
    expect(applied[0].steps).toEqual([{ kind: 'keep', alertId: 'alert-1', value: null }]);
  });

  it("records a node's unread addresses as unknown when address rules are in force, and not otherwise", async () => {
    const nodes = [
      { nodeId: 'n1-id', queues: [], unread: [], addresses: { addresses: [], unread: [] } },
      { nodeId: 'n2-id', queues: [], unread: [], addresses: null },
    ];
    const withAddressRule = evaluationWith([rule('address-limit')]);
    await withAddressRule.evaluation.afterQueues(cluster, now, nodes);
    expect(withAddressRule.applied[0].evaluation.unknown).toBe('the addresses of node n2 could not be read');

    const queueRulesOnly = evaluationWith([rule('queue-depth')]);
    await queueRulesOnly.evaluation.afterQueues(cluster, now, nodes);
    expect(queueRulesOnly.applied[0].evaluation.unknown).toBeNull();
  });

  it("reads the baseline rules' bands at the hour's first tick only, and at the next tick when that read failed", async () => {
    const reads: number[] = [];
    let failing = true;
    const { evaluation, applied } = evaluationWith([rule('queue-depth-baseline')], [], async (_id, atMs) => {
      reads.push(atMs);
      if (failing) throw new Error('canceling statement due to statement timeout');
      return new Map([['orders', { band: { low: 0, usual: 1, high: 1, weeks: 4 }, why: null }]]);
    });
    const nodes = [
      {
        nodeId: 'n1-id',
        queues: [observedQueue('orders', { messageCount: 9 })],
        unread: [],
        addresses: { addresses: [], unread: [] },
      },
      { nodeId: 'n2-id', queues: [], unread: [], addresses: { addresses: [], unread: [] } },
    ];
    const at = (ms: number) => new Date(now.getTime() + ms);
    // Not read: unknown, so nothing opens.
    await evaluation.afterQueues(cluster, now, nodes);
    expect(applied[0].steps).toEqual([]);
    failing = false;
    // Read at the next tick: 9 is above 5× a usual top of 1.
    await evaluation.afterQueues(cluster, at(15_000), nodes);
    expect(applied[1].steps).toEqual([expect.objectContaining({ kind: 'open', subject: 'orders' })]);
    await evaluation.afterQueues(cluster, at(30_000), nodes);
    expect(reads).toHaveLength(2);
    // A new hour: read again.
    await evaluation.afterQueues(cluster, at(3_600_000), nodes);
    expect(reads).toHaveLength(3);
  });
});

describe("a rule's test", () => {
  it('reads a baseline rule against the bands, with no note on rates, which it does not need', async () => {
    const why = '3 days of history, 0 of the last 4 weeks seen at this hour: a band needs 2';
    const { evaluation } = evaluationWith([], [], async () => new Map([['orders', { band: null, why }]]));
    await evaluation.afterQueues(cluster, now, [
      {
        nodeId: 'n1-id',
        queues: [observedQueue('orders', { messageCount: 9 })],
        unread: [],
        addresses: { addresses: [], unread: [] },
      },
    ]);
    const test = await evaluation.test(
      cluster.id,
      { kind: 'queue-depth-baseline', subjects: '*', threshold: 5 },
      now,
    );
    expect(test.note).toBeNull();
    expect(test.readings).toEqual([{ subject: 'orders', holds: null, value: 9, why }]);
  });

  it('reads the bands the evaluation holds for the hour, not PostgreSQL again', async () => {
    let reads = 0;
    const band = { low: 1, usual: 2, high: 3, weeks: 4 };
    const { evaluation } = evaluationWith([rule('queue-depth-baseline')], [], async () => {
      reads++;
      return new Map([['orders', { band, why: null }]]);
    });
    const read = [
      {
        nodeId: 'n1-id',
        queues: [observedQueue('orders', { messageCount: 9 })],
        unread: [],
        addresses: { addresses: [], unread: [] },
      },
    ];
    await evaluation.afterQueues(cluster, now, read);
    const test = await evaluation.test(
      cluster.id,
      { kind: 'queue-depth-baseline', subjects: '*', threshold: 2 },
      now,
    );
    expect(test.readings).toEqual([expect.objectContaining({ subject: 'orders', holds: true, value: 9 })]);
    expect(reads).toBe(1);
  });

  it('says rates are unknown only for the kinds that read them', async () => {
    const { evaluation } = evaluationWith([]);
    await evaluation.afterQueues(cluster, now, [
      {
        nodeId: 'n1-id',
        queues: [observedQueue('orders', { messageCount: 9 })],
        unread: [],
        addresses: null,
      },
    ]);
    const depth = await evaluation.test(
      cluster.id,
      { kind: 'queue-depth', subjects: '*', threshold: 2 },
      now,
    );
    expect(depth.note).toBeNull();
    const killed = await evaluation.test(
      cluster.id,
      { kind: 'queue-killed-rate', subjects: '*', threshold: 2 },
      now,
    );
    expect(killed.note).toMatch(/rates and forecasts/);
  });
});
