import { InMemoryKv } from '@artemis-studio/bus';
import type { Lease, Member } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import { ClusterLeases } from './cluster-leases';
import type { ClusterWork } from './cluster-work';
import { OwnedClusters } from './owned-clusters';
import { preferredOwners } from './preferred-owners';
import { ReplicaMembership } from './replica-membership';

describe('OwnedClusters balancing between replicas', () => {
  const log = { log: () => undefined, warn: () => undefined };
  const targets = Array.from(
    { length: 12 },
    (_, i) =>
      ({
        id: `c${i}`,
        name: `c${i}`,
        revision: '1',
        nodes: [{}],
        queueCount: 100,
      }) as unknown as ClusterTarget,
  );
  const settle = async () => {
    for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
  };

  it('gives each replica its share, moves only the joining one’s share to it, and hands over before it stops', async () => {
    const leases = new InMemoryKv<Lease>();
    const members = new InMemoryKv<Member>();
    const events: string[] = [];
    const replica = (name: string) =>
      new OwnedClusters({
        leases: new ClusterLeases(leases, 'notifier', name, 60_000),
        membership: new ReplicaMembership(members, 'notifier', 'installation-1', name, 60_000),
        clusters: async () => targets,
        start: (t) => ({ target: t, stop: () => void events.push(`${name} stopped ${t.id}`) }),
        handOver: {
          before: async (w) => void events.push(`${name} readies ${w.target.id}`),
          after: async (w) => {
            const lease = await leases.get(`notifier.${w.target.id}`);
            events.push(`${name} waits for ${w.target.id}: lease ${lease ? 'held' : 'free'}`);
          },
        },
        log,
      });
    const a = replica('replica-a');
    const b = replica('replica-b');
    const ids = (r: OwnedClusters<ClusterWork>) => r.all().map((w) => w.target.id);
    try {
      await a.run();
      expect(a.ownership()).toEqual({ clusters: 12, weight: 12 * 101, members: 1 });

      await b.run(); // joins: its share is still a's
      expect(ids(b)).toEqual([]);
      await a.run(); // sees b, hands b's share over
      await settle();
      await b.run();
      const ofA = ids(a);
      const ofB = ids(b);
      expect([...ofA, ...ofB].sort()).toEqual(targets.map((t) => t.id).sort());
      expect(ofA.filter((id) => ofB.includes(id))).toEqual([]);
      expect(Math.abs(ofA.length - ofB.length)).toBeLessThanOrEqual(2);
      // Each handed-over cluster: readied, lease given back, waited for, then stopped; none of b's stopped.
      const first = ofB[0];
      expect(events.filter((e) => new RegExp(`\\b${first}\\b`).test(e))).toEqual([
        `replica-a readies ${first}`,
        `replica-a waits for ${first}: lease free`,
        `replica-a stopped ${first}`,
      ]);
      expect(events.filter((e) => e.startsWith('replica-b'))).toEqual([]);

      // b leaves: a takes everything back at its next renewal.
      await b.stop();
      await a.run();
      expect(ids(a).sort()).toEqual(targets.map((t) => t.id).sort());
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('OwnedClusters handing a cluster over when the handover fails', () => {
  it('stops the work all the same, and gives the lease back at the next renewal', async () => {
    const leases = new InMemoryKv<Lease>();
    const members = new InMemoryKv<Member>();
    const stopped: string[] = [];
    const target = {
      id: 'c1',
      name: 'prod',
      revision: '1',
      nodes: [{}],
      queueCount: 10,
    } as unknown as ClusterTarget;
    const replica = (name: string, failing: boolean) =>
      new OwnedClusters({
        leases: new ClusterLeases(leases, 'notifier', name, 60_000),
        membership: new ReplicaMembership(members, 'notifier', 'installation-1', name, 60_000),
        clusters: async () => [target],
        start: (t) => ({ target: t, stop: () => void stopped.push(name) }),
        handOver: {
          before: async () => {
            if (failing) throw new Error('NATS is not connected');
          },
          after: async () => undefined,
        },
        log: { log: () => undefined, warn: () => undefined },
      });
    // The replica ranking first for c1 joins; the other holds it first, and its handover fails.
    const joiner = preferredOwners([{ id: 'c1', weight: 1 }], ['replica-a', 'replica-b']).get('c1')!;
    const holder = joiner === 'replica-a' ? 'replica-b' : 'replica-a';
    const a = replica(holder, true);
    const b = replica(joiner, false);
    try {
      await a.run();
      await b.run();
      await a.run(); // c1 is surplus: its handover fails
      for (let i = 0; i < 50; i++) await new Promise((resolve) => setImmediate(resolve));
      expect(stopped).toEqual([holder]);
      expect(a.all()).toEqual([]);
      await a.run(); // the lease goes back now
      await b.run();
      expect(b.all().map((w) => w.target.id)).toEqual(['c1']);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
