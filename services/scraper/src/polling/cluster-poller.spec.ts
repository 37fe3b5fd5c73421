import type { SignalTopic } from '@artemis-studio/contracts';
import { JolokiaError, type JolokiaResponse } from '../jolokia/jolokia-client';
import type { NodeObservation } from '../topology/node-observation';
import { ClusterPoller } from './cluster-poller';
import { TIER_B_REQUESTS } from './tier-b';
import {
  backupBroker,
  liveBroker,
  noMBean,
  ownedCluster,
  pollerDeps,
  refused,
  TICK_MS,
} from './poller.fixture';

/** A poller over one node whose answers the test scripts, with the node-state table in memory. */
function pollerWith(answers: (() => JolokiaResponse[])[], table = { keepsBrokerName: true, deleted: false }) {
  let clock = Date.parse('2026-11-30T12:00:00Z');
  let saved: NodeObservation[] = [];
  let puts = 0;
  const signals: SignalTopic[] = [];
  const failures: string[] = [];
  const cluster = ownedCluster();
  const poller = new ClusterPoller(
    cluster,
    pollerDeps({
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
      liveNodes: { put: async () => ++puts },
      signal: (_cluster, topic) => signals.push(topic),
      pollFailed: (_cluster, _node, kind) => failures.push(kind),
      now: () => new Date(clock),
    }),
  );
  return {
    signals,
    failures,
    state: () => saved[0],
    liveNodePuts: () => puts,
    brokerName: () => cluster.brokerName('n1'),
    /** One tier-A tick, a tick after the last. */
    tick: async () => {
      await poller.tierA();
      clock += TICK_MS;
    },
  };
}

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

describe('ClusterPoller: a live node that stops answering', () => {
  afterEach(() => jest.useRealTimers());

  it('is watched for a failover: tier A polls every half second for a while, then at its interval again', async () => {
    jest.useFakeTimers();
    let saved: NodeObservation[] = [];
    let dead = false;
    const ticks: number[] = [];
    const start = Date.now();
    const poller = new ClusterPoller(
      ownedCluster(),
      pollerDeps({
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
            saved = [
              ...saved.filter((o) => !observations.some((n) => n.nodeId === o.nodeId)),
              ...observations,
            ];
            return true;
          },
        },
        intervals: () => ({ tierAMs: 5000, tierBMs: 60_000 }),
      }),
    );
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
