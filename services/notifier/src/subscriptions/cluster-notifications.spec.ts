import type { LiveNodeSet, UnobservedPeriod } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import type { CreditGate } from '../publishing/credit-gate';
import { ClusterNotifications } from './cluster-notifications';
import type { SubscriptionOptions } from './notification-subscription';
import { ObservationLedger } from './observation-ledger';
import { MarkStore } from './observation-store.fixture';

const CLUSTER = '0b9c5c57-3f7a-4d59-9a57-2d0c1f1e8a10';
const at = (s: number) => new Date(Date.UTC(2026, 11, 2, 12, 0, 0) + s * 1000);
const RING = 'artemis-studio.ring';

/** A live-node set as the scraper publishes it: each node with its ring and since when it holds. */
const liveSet = (nodes: { name: string; ringSince: number }[]): LiveNodeSet => ({
  clusterId: CLUSTER,
  asOf: at(0).toISOString(),
  nodes: nodes.map((n) => ({
    name: n.name,
    jolokiaUrl: `http://${n.name}:8161/console/jolokia`,
    amqpUrl: `amqp://${n.name}:5672`,
    ring: { queue: RING, size: 100_000, since: at(n.ringSince).toISOString(), discarded: 0 },
  })),
});

/** A node's subscription that the test drives: it says "connecting" as it starts, as the real one does. */
class ScriptedSubscription {
  constructor(readonly options: SubscriptionOptions) {}
  get amqpUrl() {
    return this.options.node.amqpUrl;
  }
  get ring() {
    return this.options.node.ring;
  }
  start() {
    this.options.onState({ node: this.options.node.name, state: 'connecting' });
  }
  async stop() {}
  subscribed() {
    this.options.onState({ node: this.options.node.name, state: 'subscribed' });
  }
  lost(message: string) {
    this.options.onState({ node: this.options.node.name, state: 'failed', kind: 'unreachable', message });
  }
  heard(sentAt: Date) {
    this.options.onNotification({ _AMQ_NotifTimestamp: sentAt.getTime() }, {
      accept: () => undefined,
    } as never);
  }
}

describe('ClusterNotifications: a failover with rings', () => {
  let clock = at(0);
  const periods: UnobservedPeriod[] = [];
  const store = new MarkStore();
  const ledger = new ObservationLedger({
    store,
    owner: 'notifier-a',
    onUnobserved: (p) => periods.push(p),
    refreshMs: 60_000,
    warn: () => undefined,
    now: () => clock,
  });
  const subscriptions = new Map<string, ScriptedSubscription>();
  const sut = new ClusterNotifications(
    { id: CLUSTER, name: 'prod', credentials: {} } as unknown as ClusterTarget,
    {
      containerId: 'studio',
      creditWindow: 100,
      gate: { heldSince: () => null } as unknown as CreditGate,
      onNotification: () => undefined,
      putVerdict: () => undefined,
      ledger,
      now: () => clock,
      subscribe: (options) => {
        const subscription = new ScriptedSubscription(options);
        subscriptions.set(options.node.name, subscription);
        return subscription;
      },
    },
  );

  afterAll(() => sut.stop());

  it("states from when the dead primary was last heard until the backup's ring holds, though the backup came up first", async () => {
    sut.apply(liveSet([{ name: 'primary', ringSince: -100 }]));
    subscriptions.get('primary')!.subscribed();
    clock = at(10);
    subscriptions.get('primary')!.heard(at(10));
    // Killed: its subscription is lost, and its ring is believed to hold until the scraper says otherwise.
    clock = at(10.1);
    subscriptions.get('primary')!.lost('read ECONNRESET');
    // The scraper sees the backup live (its ring holds from then), the primary gone.
    clock = at(11.2);
    sut.apply(liveSet([{ name: 'backup', ringSince: 11.1 }]));
    clock = at(11.3);
    subscriptions.get('backup')!.subscribed();
    expect(sut.isObserving()).toBe(true);
    await ledger.stop('test over');

    const covered = periods.map((p) => [Date.parse(p.from!), Date.parse(p.until)]);
    expect(covered.length).toBeGreaterThan(0);
    // Everything from the primary's last notification to the moment the backup's ring vouches for.
    expect(Math.min(...covered.map(([from]) => from))).toBeLessThanOrEqual(at(10).getTime());
    expect(Math.max(...covered.map(([, until]) => until))).toBeGreaterThanOrEqual(at(11.1).getTime());
    // Without a hole between the periods stated.
    const sorted = covered.sort((a, b) => a[0] - b[0]);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i][0]).toBeLessThanOrEqual(sorted[i - 1][1]);
    expect(periods.some((p) => /primary left the live nodes/.test(p.reason))).toBe(true);
  });
});

describe('ClusterNotifications: a cluster member that dies and comes back (no backup)', () => {
  let clock = at(0);
  const periods: UnobservedPeriod[] = [];
  const ledger = new ObservationLedger({
    store: new MarkStore(),
    owner: 'notifier-a',
    onUnobserved: (p) => periods.push(p),
    refreshMs: 60_000,
    warn: () => undefined,
    now: () => clock,
  });
  const subscriptions = new Map<string, ScriptedSubscription>();
  const sut = new ClusterNotifications(
    { id: CLUSTER, name: 'prod', credentials: {} } as unknown as ClusterTarget,
    {
      containerId: 'studio',
      creditWindow: 100,
      gate: { heldSince: () => null } as unknown as CreditGate,
      onNotification: () => undefined,
      putVerdict: () => undefined,
      ledger,
      now: () => clock,
      subscribe: (options) => {
        const subscription = new ScriptedSubscription(options);
        subscriptions.set(options.node.name, subscription);
        return subscription;
      },
    },
  );

  afterAll(() => sut.stop());

  it('states it unobserved from when it was last heard until it is subscribed again', async () => {
    sut.apply(
      liveSet([
        { name: 'node1', ringSince: -100 },
        { name: 'node2', ringSince: -100 },
      ]),
    );
    subscriptions.get('node1')!.subscribed();
    subscriptions.get('node2')!.subscribed();
    clock = at(10);
    subscriptions.get('node1')!.heard(at(10));
    // Killed: the scraper no longer sees it live, and no backup serves its broker.
    clock = at(12);
    sut.apply({
      ...liveSet([{ name: 'node2', ringSince: -100 }]),
      unseen: [{ name: 'node1', since: at(10).toISOString() }],
    });
    expect(sut.isObserving()).toBe(false);
    // Back 40 s later: live again, subscribed a moment after.
    clock = at(52);
    sut.apply(
      liveSet([
        { name: 'node1', ringSince: 51 },
        { name: 'node2', ringSince: -100 },
      ]),
    );
    expect(sut.isObserving()).toBe(false);
    clock = at(53);
    subscriptions.get('node1')!.subscribed();
    expect(sut.isObserving()).toBe(true);
    await ledger.stop('test over');

    const stated = periods.find((p) => /node1 stopped answering while live/.test(p.reason));
    expect(stated).toBeDefined();
    expect(Date.parse(stated!.from!)).toBeLessThanOrEqual(at(10).getTime());
    expect(Date.parse(stated!.until)).toBeGreaterThanOrEqual(at(51).getTime());
  });
});
