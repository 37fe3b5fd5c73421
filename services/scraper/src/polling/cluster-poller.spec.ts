import type { SignalTopic } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import { JolokiaError, type JolokiaResponse } from '../jolokia/jolokia-client';
import type { NodeObservation } from '../topology/node-observation';
import { ClusterPoller, STALLED_TICK_MS } from './cluster-poller';
import { TIER_B_REQUESTS } from './tier-b';

const TICK_MS = 1000;

const target: ClusterTarget = {
  id: 'c1',
  name: 'prod',
  revision: '1',
  jolokiaOrigin: null,
  nodes: [{ id: 'n1', name: 'primary', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia', amqpUrl: null }],
  credentials: {},
  credentialError: null,
} as unknown as ClusterTarget;

const liveBroker: JolokiaResponse[] = [
  {
    status: 200,
    value: {
      'org.apache.activemq.artemis:broker="primary"': { Name: 'primary', Active: true, NodeID: 'b1' },
    },
  } as unknown as JolokiaResponse,
];

/** A poller over one node whose answers the test scripts, with the node-state table in memory. */
function pollerWith(answers: (() => JolokiaResponse[])[], table = { keepsBrokerName: true, deleted: false }) {
  let clock = Date.parse('2026-11-30T12:00:00Z');
  let saved: NodeObservation[] = [];
  let puts = 0;
  const signals: SignalTopic[] = [];
  const failures: string[] = [];
  const poller = new ClusterPoller(target, {
    jolokia: {
      bulk: async () => {
        const answer = answers.shift();
        if (!answer) throw new Error('no answer scripted');
        return answer();
      },
    },
    nodeStates: {
      // The real table has no broker name column.
      load: async () => (table.keepsBrokerName ? saved : saved.map((o) => ({ ...o, brokerName: null }))),
      // Upserts by node, as the table does: a node the tick skipped keeps its row.
      save: async (_cluster, observations) => {
        if (table.deleted) return false;
        saved = [...saved.filter((o) => !observations.some((n) => n.nodeId === o.nodeId)), ...observations];
        return true;
      },
    },
    queues: {
      sync: async () => ({ changed: 0, removed: 0, sampled: 0, storedMissing: 0 }),
      clearNode: async () => 0,
    },
    addresses: { record: async () => undefined, openSamples: async () => [] },
    liveNodes: { put: async () => ++puts },
    observers: { afterNodes: async () => undefined, afterQueues: async () => undefined },
    signal: (_cluster, topic) => signals.push(topic),
    pollFailed: (_cluster, _node, kind) => failures.push(kind),
    intervals: () => ({ tierAMs: TICK_MS, tierBMs: 5000 }),
    log: { warn: () => undefined },
    now: () => new Date(clock),
  });
  return {
    signals,
    failures,
    state: () => saved[0],
    liveNodePuts: () => puts,
    brokerName: () => poller.brokerName('n1'),
    /** One tier-A tick, a tick after the last. */
    tick: async () => {
      await poller.tierA();
      clock += TICK_MS;
    },
  };
}

const refused = () => {
  throw new JolokiaError('unreachable', 'http://127.0.0.1:1 unreachable: ECONNREFUSED');
};

const backupBroker: JolokiaResponse[] = [
  {
    status: 200,
    value: {
      'org.apache.activemq.artemis:broker="primary"': { Name: 'primary', Active: false, NodeID: 'b1' },
    },
  } as unknown as JolokiaResponse,
];

describe('ClusterPoller: a failover', () => {
  it('is stamped on the node from its persisted last role, as a new owner reading the table sees it', async () => {
    const sut = pollerWith([() => liveBroker, () => backupBroker, () => backupBroker]);
    await sut.tick();
    expect(sut.state()).toMatchObject({ lastRole: 'live', roleChangedAt: null });
    await sut.tick();
    const changedAt = sut.state().observedAt;
    expect(sut.state()).toMatchObject({ role: 'backup', lastRole: 'backup', roleChangedAt: changedAt });
    await sut.tick();
    expect(sut.state().roleChangedAt).toEqual(changedAt);
  });
});

describe('ClusterPoller: a skipped poll', () => {
  it("keeps the node's broker name, which the node-state table does not store", async () => {
    const limited = () => {
      throw new JolokiaError('limited', 'call budget for this node exhausted; retrying next tick');
    };
    const sut = pollerWith([() => liveBroker, limited], { keepsBrokerName: false, deleted: false });
    await sut.tick();
    expect(sut.brokerName()).toBe('primary');
    await sut.tick();
    expect(sut.brokerName()).toBe('primary');
  });
});

describe('ClusterPoller: a node is unreachable only after two failed polls in a row', () => {
  it('keeps a live node live through one failed poll, counting it', async () => {
    const sut = pollerWith([() => liveBroker, refused, () => liveBroker]);
    await sut.tick();
    const signalsWhenLive = sut.signals.length;

    await sut.tick();
    expect(sut.state()).toMatchObject({ reachable: true, role: 'live' });
    expect(sut.failures).toEqual(['unreachable']);

    await sut.tick();
    expect(sut.state()).toMatchObject({ reachable: true, role: 'live' });
    expect(sut.signals.length).toBe(signalsWhenLive);
  });

  it('calls the node unreachable, with the reason, when the next poll fails too', async () => {
    const sut = pollerWith([() => liveBroker, refused, refused]);
    await sut.tick();
    await sut.tick();
    await sut.tick();
    expect(sut.state()).toMatchObject({ reachable: false, reason: expect.stringMatching(/ECONNREFUSED/) });
    expect(sut.failures).toEqual(['unreachable', 'unreachable']);
    expect(sut.signals).toContain('health');
  });

  it('states a node that has never answered as unreachable at its first failure', async () => {
    const sut = pollerWith([refused]);
    await sut.tick();
    expect(sut.state()).toMatchObject({ reachable: false });
  });

  it('states a refused login at once: it is an answer, not a blip', async () => {
    const sut = pollerWith([
      () => liveBroker,
      () => {
        throw new JolokiaError('unauthorized', 'login refused');
      },
    ]);
    await sut.tick();
    await sut.tick();
    expect(sut.state()).toMatchObject({ reachable: false, reason: expect.stringMatching(/login refused/) });
  });
});

describe('ClusterPoller: a cluster deleted while its tick polled', () => {
  it('publishes no live-node set and no signal for it', async () => {
    const table = { keepsBrokerName: true, deleted: false };
    const sut = pollerWith([() => liveBroker, () => liveBroker], table);
    await sut.tick();
    expect(sut.liveNodePuts()).toBe(1);
    const signals = sut.signals.length;

    table.deleted = true;
    await sut.tick();
    expect(sut.liveNodePuts()).toBe(1);
    expect(sut.signals.length).toBe(signals);
  });
});

const noMBean = { status: 200, value: {} } as unknown as JolokiaResponse;

describe('ClusterPoller: a tick that does not end', () => {
  afterEach(() => jest.useRealTimers());

  it('is said in the log with the step it waits on, and again when it ends', async () => {
    jest.useFakeTimers();
    const warnings: string[] = [];
    let storeQueues = () => undefined as unknown;
    const poller = new ClusterPoller(target, {
      // Tier A finds the node live; tier B finds no queue and no address on it.
      jolokia: {
        bulk: async (_target, requests) =>
          requests === TIER_B_REQUESTS ? TIER_B_REQUESTS.map(() => noMBean) : liveBroker,
      },
      nodeStates: { load: async () => [], save: async () => true },
      // The write of the queues waits, as on a row lock, until the test lets it go.
      queues: {
        sync: () =>
          new Promise(
            (resolve) =>
              (storeQueues = () => resolve({ changed: 0, removed: 0, sampled: 0, storedMissing: 0 })),
          ),
        clearNode: async () => 0,
      },
      addresses: { record: async () => undefined, openSamples: async () => [] },
      liveNodes: { put: async () => 1 },
      observers: { afterNodes: async () => undefined, afterQueues: async () => undefined },
      signal: () => undefined,
      pollFailed: () => undefined,
      intervals: () => ({ tierAMs: TICK_MS, tierBMs: TICK_MS }),
      log: { warn: (message) => void warnings.push(message) },
    });
    poller.start();
    await jest.advanceTimersByTimeAsync(STALLED_TICK_MS - 1);
    expect(warnings.filter((w) => w.includes('tier B'))).toEqual([]);
    await jest.advanceTimersByTimeAsync(2);
    expect(warnings.filter((w) => w.includes('tier B'))).toEqual([
      'cluster prod: tier B tick still running after 10 s, storing the queues of node primary',
    ]);
    await jest.advanceTimersByTimeAsync(5000);
    storeQueues();
    await jest.advanceTimersByTimeAsync(0);
    poller.stop();
    expect(warnings.filter((w) => w.includes('tier B'))).toEqual([
      'cluster prod: tier B tick still running after 10 s, storing the queues of node primary',
      'cluster prod: tier B tick ended after 15 s',
    ]);
    // Tier A went on meanwhile, every tick in time: nothing said of it.
    expect(warnings.filter((w) => w.includes('tier A'))).toEqual([]);
  });
});

describe('ClusterPoller: a live node that stops answering', () => {
  afterEach(() => jest.useRealTimers());

  it('is watched for a failover: tier A polls every half second for a while, then at its interval again', async () => {
    jest.useFakeTimers();
    let saved: NodeObservation[] = [];
    let dead = false;
    const ticks: number[] = [];
    const start = Date.now();
    const poller = new ClusterPoller(target, {
      jolokia: {
        bulk: async (_target, requests) => {
          if (requests === TIER_B_REQUESTS) return TIER_B_REQUESTS.map(() => noMBean);
          if (dead) refused();
          return liveBroker;
        },
      },
      nodeStates: {
        load: async () => {
          ticks.push(Date.now() - start);
          return saved;
        },
        save: async (_cluster, observations) => {
          saved = [...saved.filter((o) => !observations.some((n) => n.nodeId === o.nodeId)), ...observations];
          return true;
        },
      },
      queues: {
        sync: async () => ({ changed: 0, removed: 0, sampled: 0, storedMissing: 0 }),
        clearNode: async () => 0,
      },
      addresses: { record: async () => undefined, openSamples: async () => [] },
      liveNodes: { put: async () => 1 },
      observers: { afterNodes: async () => undefined, afterQueues: async () => undefined },
      signal: () => undefined,
      pollFailed: () => undefined,
      intervals: () => ({ tierAMs: 5000, tierBMs: 60_000 }),
      log: { warn: () => undefined },
    });
    poller.start();
    await jest.advanceTimersByTimeAsync(9000);
    expect(ticks).toEqual([0, 5000]);

    dead = true; // the tick at 10 s finds it gone
    await jest.advanceTimersByTimeAsync(3000);
    expect(ticks.filter((t) => t >= 10_000 && t <= 12_000)).toEqual([10_000, 10_500, 11_000, 11_500, 12_000]);

    // Called unreachable at its next poll, it no longer counts as live: the watch runs out, and
    // tier A is back at its interval.
    await jest.advanceTimersByTimeAsync(60_000);
    poller.stop();
    expect(saved[0]).toMatchObject({ reachable: false });
    const late = ticks.filter((t) => t >= 50_000);
    expect(late.length).toBeGreaterThan(0);
    for (let i = 1; i < late.length; i++) expect(late[i] - late[i - 1]).toBe(5000);
  });
});

describe('ClusterPoller: the address history (ADR-0022)', () => {
  const noQueues = { status: 404 } as unknown as JolokiaResponse;
  const addresses = (sizeBytes: number) =>
    ({
      status: 200,
      value: {
        'org.apache.activemq.artemis:broker="primary",component=addresses,address="orders"': {
          Address: 'orders',
          AddressSize: sizeBytes,
          Paging: false,
          NumberOfPages: 0,
          AddressLimitPercent: 0,
        },
      },
    }) as unknown as JolokiaResponse;

  it("starts from the history's open samples, writes what changed, and ends a node's addresses once it is no longer live", async () => {
    const answers: JolokiaResponse[][] = [
      liveBroker,
      [noQueues, addresses(10)],
      [noQueues, addresses(10)],
      [noQueues, addresses(20)],
      backupBroker,
    ];
    const written: string[][] = [];
    let seeded = 0;
    let clock = Date.parse('2026-11-30T12:00:00Z');
    const poller = new ClusterPoller(target, {
      jolokia: { bulk: async () => answers.shift()! },
      nodeStates: { load: async () => [], save: async () => true },
      queues: {
        sync: async () => ({ changed: 0, removed: 0, sampled: 0, storedMissing: 0 }),
        clearNode: async () => 0,
      },
      addresses: {
        openSamples: async () => {
          seeded++;
          return [
            {
              nodeId: 'n1',
              sampledAt: new Date(clock - 15_000),
              address: { name: 'gone', sizeBytes: 1, pages: 0, paging: false, limitFraction: null },
            },
          ];
        },
        record: async (_cluster, _node, rows) => {
          written.push(rows.map((r) => `${r.name}:${r.ended ? 'end' : r.sizeBytes}`));
        },
      },
      liveNodes: { put: async () => 0 },
      observers: { afterNodes: async () => undefined, afterQueues: async () => undefined },
      signal: () => undefined,
      pollFailed: () => undefined,
      intervals: () => ({ tierAMs: TICK_MS, tierBMs: 5000 }),
      log: { warn: () => undefined },
      now: () => new Date(clock),
    });
    await poller.tierA();
    for (let i = 0; i < 3; i++) {
      await poller.tierB();
      clock += 5000;
    }
    await poller.tierA();
    await poller.tierB();
    expect(seeded).toBe(1);
    expect(written).toEqual([['orders:10', 'gone:end'], [], ['orders:20'], ['orders:end']]);
  });
});

describe('ClusterPoller: the queue figures sent to PostgreSQL (ADR-0024)', () => {
  const noAddresses = { status: 404 } as unknown as JolokiaResponse;
  /** The node's queues read at a tick: name and depth. */
  const queues = (depths: Record<string, number>) =>
    ({
      status: 200,
      value: Object.fromEntries(
        Object.entries(depths).map(([name, depth]) => [
          `org.apache.activemq.artemis:address="${name}",broker="primary",component=addresses,queue="${name}",routing-type="anycast",subcomponent=queues`,
          { Name: name, Address: name, RoutingType: 'ANYCAST', MessageCount: depth, MessagesAdded: depth },
        ]),
      ),
    }) as unknown as JolokiaResponse;

  it('sends every queue at first, then only the changed ones in full, and all again when a statement failed, a snapshot was missing or the node was not live', async () => {
    const answers: JolokiaResponse[][] = [liveBroker];
    const sent: string[] = [];
    const warnings: string[] = [];
    let failNext = false;
    let missingNext = 0;
    const poller = new ClusterPoller(target, {
      jolokia: { bulk: async () => answers.shift()! },
      nodeStates: { load: async () => [], save: async () => true },
      queues: {
        sync: async (_cluster, _node, changed, _at, _unread, stored = []) => {
          sent.push(`${changed.map((q) => `${q.name}=${q.messageCount}`).join(' ')} | ${stored.join(' ')}`);
          if (failNext) {
            failNext = false;
            throw new Error('connection lost');
          }
          const storedMissing = missingNext;
          missingNext = 0;
          return { changed: changed.length, removed: 0, sampled: 0, storedMissing };
        },
        clearNode: async () => 0,
      },
      addresses: { record: async () => undefined, openSamples: async () => [] },
      liveNodes: { put: async () => 0 },
      observers: { afterNodes: async () => undefined, afterQueues: async () => undefined },
      signal: () => undefined,
      pollFailed: () => undefined,
      intervals: () => ({ tierAMs: TICK_MS, tierBMs: 5000 }),
      log: { warn: (message) => void warnings.push(message) },
    });
    const tick = async (depths: Record<string, number>) => {
      answers.push([queues(depths), noAddresses]);
      await poller.tierB();
    };
    await poller.tierA();
    await tick({ a: 0, b: 0, c: 0 });
    await tick({ a: 0, b: 1, c: 0 });
    failNext = true;
    await tick({ a: 2, b: 1, c: 0 });
    // The failed statement wrote nothing: a is sent in full again.
    await tick({ a: 2, b: 1, c: 0 });
    missingNext = 1;
    await tick({ a: 2, b: 1, c: 0 });
    await tick({ a: 2, b: 1, c: 0 });
    // A backup for a while (its snapshots cleared), then live again.
    answers.push(backupBroker);
    await poller.tierA();
    await poller.tierB();
    answers.push(liveBroker);
    await poller.tierA();
    await tick({ a: 2, b: 1, c: 0 });
    expect(sent).toEqual([
      'a=0 b=0 c=0 | ',
      'b=1 | a c',
      'a=2 | b c',
      'a=2 | b c',
      ' | a b c',
      'a=2 b=1 c=0 | ',
      'a=2 b=1 c=0 | ',
    ]);
    expect(warnings).toEqual([
      expect.stringContaining('queue poll failed: connection lost'),
      'cluster prod, node primary: 1 queue(s) had no snapshot to take their figures from, and are left out until the next tick',
    ]);
  });
});
