import type { AddressFact } from './address-facts';
import {
  readAddresses,
  readNodes as readNodesAt,
  readQueues as readAll,
  type NodeFigures,
  type QueueFact,
} from './conditions';
import { SubjectIndex } from './subject-index';

const readQueues = (rule: Parameters<typeof readAll>[0], queues: QueueFact[], at: Date) =>
  readAll(rule, new SubjectIndex(queues), at);
const readNodes = (rule: Parameters<typeof readNodesAt>[0], nodes: NodeFigures[]) =>
  readNodesAt(rule, nodes, now);

const now = new Date('2026-12-01T10:00:00Z');
const queue = (over: Partial<QueueFact> = {}): QueueFact => ({
  name: 'orders',
  messageCount: 0,
  consumerCount: 1,
  deliveringCount: 0,
  unconsumedMessages: 0,
  addedPerSecond: 0,
  acknowledgedPerSecond: 0,
  killedPerSecond: 0,
  expiredPerSecond: 0,
  firstMessageAt: null,
  ...over,
});
const node = (over: Partial<NodeFigures> = {}): NodeFigures => ({
  name: 'primary',
  reachable: true,
  role: 'live',
  replicaSync: null,
  diskUsage: 0.5,
  diskLimit: 0.9,
  memoryBytes: 100,
  memoryLimitBytes: 1000,
  roleChangedAt: null,
  diskFullInSeconds: Infinity,
  ...over,
});
const address = (over: Partial<AddressFact> = {}): AddressFact => ({
  name: 'orders',
  sizeBytes: 1000,
  paging: false,
  pages: 0,
  limitFraction: 0.1,
  secondsUntilFull: Infinity,
  ...over,
});
const one = <T>(readings: T[]) => {
  expect(readings).toHaveLength(1);
  return readings[0];
};

describe('queue conditions', () => {
  it('reads depth against its threshold, only on the queues the pattern names', () => {
    const rule = { kind: 'queue-depth' as const, subjects: 'orders*', threshold: 100 };
    const readings = readQueues(
      rule,
      [queue({ messageCount: 101 }), queue({ name: 'audit', messageCount: 1e6 })],
      now,
    );
    expect(readings).toEqual([{ subject: 'orders', holds: true, value: 101 }]);
    expect(one(readQueues(rule, [queue({ messageCount: 100 })], now)).holds).toBe(false);
  });

  it("reads the oldest message's age from its send time; unknown when the broker does not say", () => {
    const rule = { kind: 'queue-oldest-message' as const, subjects: '*', threshold: 300 };
    const old = queue({ messageCount: 3, firstMessageAt: new Date(now.getTime() - 301_000) });
    expect(one(readQueues(rule, [old], now))).toEqual({ subject: 'orders', holds: true, value: 301 });
    expect(one(readQueues(rule, [queue({ messageCount: 3 })], now)).holds).toBeNull();
    expect(one(readQueues(rule, [queue()], now))).toMatchObject({ holds: false, value: 0 });
  });

  it('sees a stuck consumer: waiting, in delivery, consumers attached, nothing acknowledged', () => {
    const rule = { kind: 'queue-stuck-consumer' as const, subjects: '*', threshold: null };
    const stuck = queue({ messageCount: 50, deliveringCount: 1, consumerCount: 1, acknowledgedPerSecond: 0 });
    expect(one(readQueues(rule, [stuck], now))).toEqual({ subject: 'orders', holds: true, value: 1 });
    expect(one(readQueues(rule, [{ ...stuck, acknowledgedPerSecond: 2 }], now)).holds).toBe(false);
    expect(one(readQueues(rule, [{ ...stuck, consumerCount: 0 }], now)).holds).toBe(false);
    expect(one(readQueues(rule, [{ ...stuck, acknowledgedPerSecond: null }], now)).holds).toBeNull();
  });

  it('sees messages arriving with no consumer, and a queue receiving at all; unknown without a rate', () => {
    const growing = { kind: 'queue-growing-unconsumed' as const, subjects: '*', threshold: null };
    expect(one(readQueues(growing, [queue({ consumerCount: 0, addedPerSecond: 5 })], now)).holds).toBe(true);
    expect(one(readQueues(growing, [queue({ consumerCount: 1, addedPerSecond: 5 })], now)).holds).toBe(false);
    const receiving = { kind: 'queue-receiving' as const, subjects: 'DLQ', threshold: null };
    expect(one(readQueues(receiving, [queue({ name: 'DLQ', addedPerSecond: 0.2 })], now)).holds).toBe(true);
    expect(one(readQueues(receiving, [queue({ name: 'DLQ', addedPerSecond: null })], now)).holds).toBeNull();
  });

  it('sees messages waiting with no consumer', () => {
    const rule = { kind: 'queue-no-consumers' as const, subjects: '*', threshold: null };
    expect(one(readQueues(rule, [queue({ messageCount: 1, consumerCount: 0 })], now)).holds).toBe(true);
    expect(one(readQueues(rule, [queue({ messageCount: 0, consumerCount: 0 })], now)).holds).toBe(false);
  });

  it('reads killed and expired rates against their threshold', () => {
    const rule = { kind: 'queue-killed-rate' as const, subjects: '*', threshold: 1 };
    expect(one(readQueues(rule, [queue({ killedPerSecond: 1.5 })], now)).holds).toBe(true);
    expect(
      one(readQueues({ ...rule, kind: 'queue-expired-rate' }, [queue({ expiredPerSecond: 0.5 })], now)).holds,
    ).toBe(false);
  });
});

describe('node conditions', () => {
  it('sees an unreachable node', () => {
    const rule = { kind: 'node-unreachable' as const, subjects: '*', threshold: null };
    expect(one(readNodes(rule, [node({ reachable: false })]))).toEqual({
      subject: 'primary',
      holds: true,
      value: 1,
    });
  });

  it('sees a backup out of sync; unknown while it cannot be read, false on a live node', () => {
    const rule = { kind: 'node-backup-unsynced' as const, subjects: '*', threshold: null };
    expect(one(readNodes(rule, [node({ role: 'backup', replicaSync: false })])).holds).toBe(true);
    expect(one(readNodes(rule, [node({ role: 'backup', reachable: false })])).holds).toBeNull();
    expect(one(readNodes(rule, [node({ role: 'live' })])).holds).toBe(false);
  });

  it('reads disk and address memory as fractions; a broker without a memory limit never fills it', () => {
    const disk = { kind: 'node-disk-usage' as const, subjects: '*', threshold: 0.9 };
    expect(one(readNodes(disk, [node({ diskUsage: 0.95 })]))).toEqual({
      subject: 'primary',
      holds: true,
      value: 0.95,
    });
    expect(one(readNodes(disk, [node({ diskUsage: null })])).holds).toBeNull();
    const memory = { kind: 'node-address-memory' as const, subjects: '*', threshold: 0.8 };
    expect(one(readNodes(memory, [node({ memoryBytes: 900 })])).value).toBe(0.9);
    expect(one(readNodes(memory, [node({ memoryLimitBytes: -1 })])).holds).toBe(false);
  });

  it('forecasts the disk against its limit: under the threshold fires, not filling never, unknown waits', () => {
    const rule = { kind: 'node-disk-full-forecast' as const, subjects: '*', threshold: 600 };
    expect(one(readNodes(rule, [node({ diskFullInSeconds: 300 })]))).toEqual({
      subject: 'primary',
      holds: true,
      value: 300,
    });
    expect(one(readNodes(rule, [node({ diskFullInSeconds: 900 })])).holds).toBe(false);
    expect(one(readNodes(rule, [node({ diskFullInSeconds: Infinity })]))).toEqual({
      subject: 'primary',
      holds: false,
      value: null,
    });
    expect(one(readNodes(rule, [node({ diskFullInSeconds: null })])).holds).toBeNull();
  });

  it('holds for its threshold after a failover or failback, and not before any', () => {
    const rule = { kind: 'node-role-changed' as const, subjects: '*', threshold: 600 };
    const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
    expect(one(readNodes(rule, [node({ roleChangedAt: minutesAgo(2) })]))).toEqual({
      subject: 'primary',
      holds: true,
      value: 120,
    });
    expect(one(readNodes(rule, [node({ roleChangedAt: minutesAgo(11) })])).holds).toBe(false);
    expect(one(readNodes(rule, [node()])).holds).toBe(false);
  });
});

describe('address conditions', () => {
  const read = (rule: Parameters<typeof readAddresses>[0], addresses: AddressFact[]) =>
    readAddresses(rule, new SubjectIndex(addresses));

  it('sees paging, with its page files as the value', () => {
    const rule = { kind: 'address-paging' as const, subjects: 'orders', threshold: null };
    expect(one(read(rule, [address({ paging: true, pages: 3 })]))).toEqual({
      subject: 'orders',
      holds: true,
      value: 3,
    });
    expect(one(read(rule, [address()])).holds).toBe(false);
    expect(one(read(rule, [address({ stale: true })])).holds).toBeNull();
  });

  it('reads the limit as a fraction, unknown when the broker does not say', () => {
    const rule = { kind: 'address-limit' as const, subjects: '*', threshold: 0.8 };
    expect(one(read(rule, [address({ limitFraction: 0.85 })])).holds).toBe(true);
    expect(one(read(rule, [address({ limitFraction: 0.5 })])).holds).toBe(false);
    expect(one(read(rule, [address({ limitFraction: null })])).holds).toBeNull();
  });

  it('fires the forecast under its threshold; given open alerts, reads only what acts', () => {
    const rule = { kind: 'address-full-forecast' as const, subjects: '*', threshold: 300 };
    const addresses = new SubjectIndex([
      address({ name: 'a', secondsUntilFull: 120 }),
      address({ name: 'b', secondsUntilFull: 900 }),
      address({ name: 'c', secondsUntilFull: Infinity }),
    ]);
    expect(readAddresses(rule, addresses, new Set(['c'])).map((r) => [r.subject, r.holds])).toEqual([
      ['a', true],
      ['c', false],
    ]);
  });
});

describe('the subjects a rule picks', () => {
  const names = ['orders', 'orders.eu', 'orders.us', 'audit', 'DLQ'].map((name) => queue({ name }));
  const index = new SubjectIndex(names);

  it('by exact name, by pattern, or all', () => {
    expect(index.select('audit').map((q) => q.name)).toEqual(['audit']);
    expect(index.select('nothing')).toEqual([]);
    expect(index.select('orders.*').map((q) => q.name)).toEqual(['orders.eu', 'orders.us']);
    expect(index.select('*')).toHaveLength(5);
    expect(index.select('*.us').map((q) => q.name)).toEqual(['orders.us']);
  });

  it('finds a prefix family by its range, as a scan of every name would', () => {
    const family = ['a', 'a.b', 'a.b.c', 'a.bc', 'a.c', 'ab', 'a*b', 'b', 'Z', 'é', 'a.b\n'].map((name) =>
      queue({ name }),
    );
    const big = new SubjectIndex(family);
    for (const prefix of ['a', 'a.', 'a.b', 'a.b.', 'ab', 'é', 'z', 'Z', 'a.b\n'])
      expect(
        big
          .select(`${prefix}*`)
          .map((q) => q.name)
          .sort(),
      ).toEqual(
        family
          .map((q) => q.name)
          .filter((n) => n.startsWith(prefix))
          .sort(),
      );
  });

  it('reads only what an evaluation acts on: what holds, and what has an open alert', () => {
    const deep = new SubjectIndex([
      queue({ name: 'a', messageCount: 50 }),
      queue({ name: 'b' }),
      queue({ name: 'c' }),
    ]);
    const rule = { kind: 'queue-depth' as const, subjects: '*', threshold: 10 };
    expect(readAll(rule, deep, now, new Set(['b'])).map((r) => [r.subject, r.holds])).toEqual([
      ['a', true],
      ['b', false],
    ]);
  });
});
