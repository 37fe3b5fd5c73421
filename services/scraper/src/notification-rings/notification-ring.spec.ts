import { discardedBy, parseRingQueues, planRing, ringReportId, UNWANTED_GRACE_MS } from './notification-ring';
import { RingKeeper, type RingKeeperDeps } from './ring-keeper';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import type { DropReport, LiveNodeSet } from '@artemis-studio/contracts';

const reading = (over: Partial<ReturnType<typeof figures>> = {}) => ({ ...figures(), ...over });
function figures() {
  return {
    name: 'artemis-studio.c1',
    ringSize: 100,
    messageCount: 0,
    added: 0,
    acknowledged: 0,
    expired: 0,
    killed: 0,
    consumers: 1,
  };
}

/** A read of the notification address holding `queues`, as Jolokia answers it. */
const answer = (...queues: Record<string, unknown>[]): JolokiaResponse => ({
  status: 200,
  value: Object.fromEntries(queues.map((q, i) => [`mbean-${i}`, q])),
});
const ringAttributes = (over: Record<string, unknown> = {}) => ({
  Name: 'artemis-studio.c1',
  RingSize: 100,
  MessageCount: 0,
  MessagesAdded: 0,
  MessagesAcknowledged: 0,
  MessagesExpired: 0,
  MessagesKilled: 0,
  ConsumerCount: 1,
  ...over,
});

describe('planRing', () => {
  it('makes a missing ring with its bound, and bounds one made otherwise', () => {
    expect(planRing(100, undefined, 0)).toEqual([{ kind: 'create', size: 100 }]);
    expect(planRing(100, reading({ ringSize: -1 }), 0)).toEqual([{ kind: 'resize', size: 100 }]);
    expect(planRing(100, reading(), 0)).toEqual([]);
  });

  it('destroys an unwanted ring once its reader has left, or under it after the grace', () => {
    expect(planRing(0, undefined, 0)).toEqual([]);
    expect(planRing(0, reading({ consumers: 0 }), 0)).toEqual([{ kind: 'destroy', removeConsumers: false }]);
    expect(planRing(0, reading(), UNWANTED_GRACE_MS - 1)).toEqual([]);
    expect(planRing(0, reading(), UNWANTED_GRACE_MS)).toEqual([{ kind: 'destroy', removeConsumers: true }]);
  });
});

describe('discardedBy', () => {
  it('is what was added and neither acknowledged, expired, killed nor held', () => {
    expect(
      discardedBy(reading({ added: 500, acknowledged: 300, expired: 5, killed: 5, messageCount: 100 })),
    ).toBe(90);
    // Read mid-flight, the figures can only understate: never a negative loss.
    expect(discardedBy(reading({ added: 10, acknowledged: 12 }))).toBe(0);
  });
});

describe('parseRingQueues', () => {
  it('reads each queue; no queue at all (404) is an answer, an error is not', () => {
    expect(parseRingQueues(answer(ringAttributes({ MessageCount: 3 })))).toEqual([
      reading({ messageCount: 3 }),
    ]);
    expect(parseRingQueues({ status: 404, error: 'not found' })).toEqual([]);
    expect(parseRingQueues({ status: 500, error: 'boom' })).toBeNull();
    expect(parseRingQueues(undefined)).toBeNull();
    expect(parseRingQueues(answer(ringAttributes({ MessagesAdded: 'ERROR: not started' })))).toBeNull();
  });
});

describe('RingKeeper', () => {
  const node = (over: Partial<Parameters<RingKeeper['keep']>[0]> = {}) => ({
    name: 'n1',
    broker: 'b1',
    target: { nodeKey: 'n1', jolokiaUrl: 'http://n1', origin: 'http://n1' },
    answer: answer(ringAttributes()),
    startedAt: new Date('2026-12-01T00:00:00Z'),
    ...over,
  });
  function keeper(size: number, refuse = false, previous?: () => Promise<LiveNodeSet | null>) {
    const calls: JolokiaRequest[] = [];
    const reports: DropReport[] = [];
    const deps: RingKeeperDeps = {
      jolokia: {
        bulk: async (_t, requests) => {
          calls.push(...requests);
          return requests.map(() => (refuse ? { status: 403, error: 'Forbidden' } : { status: 200 }));
        },
      },
      lanes: { run: (_key, work) => work() },
      size: () => size,
      reportDrops: async (report) => void reports.push(report),
      log: { warn: () => undefined },
    };
    return { sut: new RingKeeper('c1', deps, previous), calls, reports };
  }
  const t0 = new Date('2026-12-02T10:00:00Z');
  const later = (s: number) => new Date(t0.getTime() + s * 1000);

  /** Lets the keeper's background calls finish. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('makes the ring where there is none, in the background, and vouches for it from when it is seen', async () => {
    const { sut, calls } = keeper(100);
    expect(await sut.keep(node({ answer: { status: 404 } }), t0)).toEqual({ noRing: 'being made' });
    await settle();
    expect(calls[0]).toMatchObject({ type: 'exec', operation: 'createQueue(java.lang.String,boolean)' });
    expect(JSON.parse((calls[0] as { arguments: string[] }).arguments[0])).toMatchObject({
      name: 'artemis-studio.c1',
      address: 'activemq.notifications',
      'routing-type': 'MULTICAST',
      durable: true,
      'ring-size': 100,
    });
    expect(await sut.keep(node(), later(1))).toEqual({
      ring: { queue: 'artemis-studio.c1', size: 100, since: later(1).toISOString(), discarded: 0 },
    });
  });

  it('does not call a queue without a bound a ring, and bounds it', async () => {
    const { sut, calls } = keeper(100);
    expect(await sut.keep(node({ answer: answer(ringAttributes({ RingSize: -1 })) }), t0)).toEqual({
      noRing: 'being made',
    });
    await settle();
    expect(calls[0]).toMatchObject({ operation: 'updateQueue(java.lang.String)' });
  });

  it('reports each discard once, under an id a retry repeats', async () => {
    const { sut, reports } = keeper(100);
    await sut.keep(node(), t0);
    const full = (added: number) => answer(ringAttributes({ MessagesAdded: added, MessageCount: 100 }));
    const first = await sut.keep(node({ answer: full(130) }), later(1));
    expect(first.ring?.discarded).toBe(30);
    await sut.keep(node({ answer: full(130) }), later(2));
    await sut.keep(node({ answer: full(150) }), later(3));
    expect(reports.map((r) => r.count)).toEqual([30, 20]);
    expect(reports[0]).toMatchObject({ source: 'broker-ring', clusterId: 'c1' });
    expect(reports[0].reportId).toBe(ringReportId('c1', 'n1', t0.toISOString(), 30));
  });

  it('counts the rest of what a read during a fast drain undercounted, and never counts a dip twice', async () => {
    const { sut, reports } = keeper(100);
    await sut.keep(node(), t0);
    const read = (added: number, acknowledged: number, held: number) =>
      answer(
        ringAttributes({ MessagesAdded: added, MessagesAcknowledged: acknowledged, MessageCount: held }),
      );
    // Truly 150 discarded; read while draining, 40 moved to acknowledged between two attributes.
    await sut.keep(node({ answer: read(1000, 790, 100) }), later(1));
    await settle();
    // A read undercounting more (a dip) is no reset; the quiet read after it counts the rest.
    await sut.keep(node({ answer: read(1010, 850, 100) }), later(2));
    await settle();
    await sut.keep(node({ answer: read(1020, 860, 10) }), later(3));
    await settle();
    expect(reports.map((r) => r.count)).toEqual([110, 40]);
  });

  it('believes no rise while the ring cannot have been full: an acknowledgement read half-way is no loss', async () => {
    const { sut, reports } = keeper(100);
    const read = (added: number, acknowledged: number, held: number) =>
      answer(
        ringAttributes({ MessagesAdded: added, MessagesAcknowledged: acknowledged, MessageCount: held }),
      );
    await sut.keep(node({ answer: read(500, 490, 10) }), t0);
    // One notification out of the held count and not yet counted acknowledged: the counters say 1
    // discarded, but 10 held and 20 added since cannot have filled a ring of 100.
    await sut.keep(node({ answer: read(520, 509, 10) }), later(1));
    await sut.keep(node({ answer: read(530, 520, 10) }), later(2));
    await settle();
    expect(reports).toEqual([]);
    // 170 added onto 10 held: it filled, and the 80 it discarded are counted.
    const filled = await sut.keep(node({ answer: read(700, 520, 100) }), later(3));
    await settle();
    expect(filled.ring?.discarded).toBe(80);
    expect(reports.map((r) => r.count)).toEqual([80]);
  });

  it('counts afresh when the counters start again (the queue was made again)', async () => {
    const { sut, reports } = keeper(100);
    await sut.keep(node(), t0);
    await sut.keep(node({ answer: drained(1000, 900) }), later(1));
    await settle();
    await sut.keep(node({ answer: drained(200, 150) }), later(2));
    await settle();
    expect(reports.map((r) => r.count)).toEqual([90, 40]);
  });

  /** Drained by a notifier, not full: what the counters say was discarded all the same. */
  const drained = (added: number, acknowledged: number) =>
    answer(ringAttributes({ MessagesAdded: added, MessagesAcknowledged: acknowledged, MessageCount: 10 }));

  /** What the previous owner last said of the ring, `asOf` when it said it. */
  const handedOn = (asOf: Date): LiveNodeSet => ({
    clusterId: 'c1',
    asOf: asOf.toISOString(),
    nodes: [
      {
        name: 'n1',
        ring: { queue: 'artemis-studio.c1', size: 100, since: later(-3600).toISOString(), discarded: 40 },
      } as LiveNodeSet['nodes'][number],
    ],
  });

  it('counts what a ring discarded while unread, though a notifier drained it before the first reading', async () => {
    const { sut, reports } = keeper(100, false, async () => handedOn(t0));
    // Ten minutes later (a whole Studio away): added 5,050, read 4,900, 10 held, so 140 discarded.
    const back = await sut.keep(node({ answer: drained(5050, 4900) }), later(600));
    await settle();
    expect(back.ring).toMatchObject({ since: later(-3600).toISOString(), discarded: 140 });
    expect(reports).toMatchObject([{ count: 100, from: t0.toISOString() }]);
    expect(reports[0].reason).toContain(`between ${t0.toISOString()} and ${later(600).toISOString()}`);
  });

  it('takes a handover seconds old as read: its discards were made since that reading', async () => {
    const { sut, reports } = keeper(100, false, async () => handedOn(t0));
    await sut.keep(node({ answer: drained(5050, 4900) }), later(2));
    await settle();
    expect(reports).toMatchObject([{ count: 100, from: t0.toISOString(), ts: later(2).toISOString() }]);
    expect(reports[0].reason).not.toContain('unread meanwhile');
  });

  it('counts discards made while the address could not be read for longer than a few polls', async () => {
    const { sut, reports } = keeper(100);
    await sut.keep(node(), t0);
    for (let s = 1; s <= 30; s++) await sut.keep(node({ answer: { status: 500, error: 'busy' } }), later(s));
    await sut.keep(node({ answer: drained(1000, 900) }), later(31));
    await settle();
    expect(reports.map((r) => r.count)).toEqual([90]);
  });

  it('vouches for nothing the ring discarded before it was first seen', async () => {
    const { sut, reports } = keeper(100);
    expect((await sut.keep(node({ answer: drained(1000, 900) }), t0)).ring?.discarded).toBe(90);
    await sut.keep(node({ answer: drained(1100, 1000) }), later(1));
    await sut.keep(node({ answer: drained(1100, 1000) }), later(60));
    await settle();
    expect(reports).toEqual([]);
  });

  it('vouches only from the broker start when the broker restarted (a restart empties the ring)', async () => {
    const { sut } = keeper(100);
    await sut.keep(node(), t0);
    const restart = later(60);
    const after = await sut.keep(node({ startedAt: restart }), later(61));
    expect(after.ring?.since).toBe(restart.toISOString());
  });

  it('says why there is no ring: turned off, or refused by the broker', async () => {
    expect(await keeper(0).sut.keep(node({ answer: { status: 404 } }), t0)).toEqual({
      noRing: expect.stringMatching(/turned off/),
    });
    const { sut } = keeper(100, true);
    await sut.keep(node({ answer: { status: 404 } }), t0);
    await settle();
    expect(await sut.keep(node({ answer: { status: 404 } }), later(1))).toEqual({
      noRing: 'the broker refused to make it: Forbidden',
    });
  });

  it('keeps what it knew when the notification address could not be read this tick', async () => {
    const { sut, calls } = keeper(100);
    const made = await sut.keep(node(), t0);
    expect(await sut.keep(node({ answer: { status: 500, error: 'busy' } }), later(1))).toEqual(made);
    expect(calls).toEqual([]);
  });
});
