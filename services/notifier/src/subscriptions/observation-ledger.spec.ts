import type { UnobservedPeriod } from '@artemis-studio/contracts';
import { HANDOVER_INTERRUPTED, ObservationLedger, STOPPED_UNANNOUNCED } from './observation-ledger';
import { MarkStore } from './observation-store.fixture';

const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, s));
const iso = (s: number) => at(s).toISOString();

describe('ObservationLedger', () => {
  let store: MarkStore;
  const periods: UnobservedPeriod[] = [];
  const ledger = (owner = 'notifier-a') =>
    new ObservationLedger({
      store,
      owner,
      onUnobserved: (p) => periods.push(p),
      refreshMs: 5000,
      warn: () => undefined,
    });
  /** Moves the clock to `s` seconds, firing the refreshes due meanwhile. */
  const clockTo = (s: number) => jest.advanceTimersByTimeAsync(at(s).getTime() - Date.now());
  // Lets the ledger's queued reads and writes run.
  const settle = async (sut: ObservationLedger) => sut.stop('test over').then(() => undefined);

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'], now: at(0) });
    store = new MarkStore();
    periods.length = 0;
  });
  afterEach(() => jest.useRealTimers());

  it('reports nothing the first time a cluster is observed, and leaves a mark', async () => {
    const sut = ledger();
    sut.resumed();
    await jest.advanceTimersByTimeAsync(0);
    expect(periods).toEqual([]);
    expect(store.mark).toEqual({ observedUntil: iso(0), observing: true, owner: 'notifier-a' });
    await settle(sut);
  });

  it('reaches a period open now back to an earlier start, once, and never while observing', async () => {
    const sut = ledger();
    sut.resumed();
    await clockTo(20);
    sut.interrupted(at(20), 'not yet subscribed to backup');
    sut.reachBack(at(15), 'primary left the live nodes');
    sut.reachBack(at(18), 'primary left the live nodes'); // inside what is already stated
    await clockTo(22);
    sut.resumed(at(21));
    sut.reachBack(at(10), 'too late: observing again');
    await clockTo(23);
    expect(periods).toEqual([
      { from: iso(15), until: iso(20), reason: 'primary left the live nodes' },
      { from: iso(20), until: iso(21), reason: 'not yet subscribed to backup' },
    ]);
    await settle(sut);
  });

  it('refreshes its mark while it observes', async () => {
    const sut = ledger();
    sut.resumed();
    await clockTo(12);
    expect(store.mark).toEqual({ observedUntil: iso(10), observing: true, owner: 'notifier-a' });
    await settle(sut);
  });

  it("dates a crashed owner's period from its last refresh", async () => {
    // notifier-a refreshed at 10 s, then died without a word: its mark still says it observes.
    store.mark = { observedUntil: iso(10), observing: true, owner: 'notifier-a' };
    await clockTo(30);
    const next = ledger('notifier-b');
    next.resumed();
    await clockTo(30);
    expect(periods).toEqual([{ from: iso(10), until: iso(30), reason: STOPPED_UNANNOUNCED }]);
    expect(store.mark).toEqual({ observedUntil: iso(30), observing: true, owner: 'notifier-b' });
    await settle(next);
  });

  it("reports no period when the rings held since before a crashed owner's last refresh, and only up to their start otherwise", async () => {
    store.mark = { observedUntil: iso(10), observing: true, owner: 'notifier-a' };
    await clockTo(30);
    const held = ledger('notifier-b');
    held.resumed(at(5));
    await clockTo(30);
    expect(periods).toEqual([]);
    await settle(held);

    store.mark = { observedUntil: iso(10), observing: true, owner: 'notifier-a' };
    const late = ledger('notifier-c');
    late.resumed(at(20));
    await clockTo(30);
    expect(periods).toEqual([{ from: iso(10), until: iso(20), reason: STOPPED_UNANNOUNCED }]);
    await settle(late);
  });

  it('dates its mark at once when the rings start holding, so a successor states nothing it observed', async () => {
    const first = ledger('notifier-a');
    first.resumed();
    await clockTo(1);
    // The rings hold from second 1; the next refresh would be at 5, and it dies at 2.
    first.refreshNow();
    await clockTo(2);
    expect(store.mark).toMatchObject({ observedUntil: iso(1), observing: true });
    const successor = ledger('notifier-b');
    successor.resumed(at(1));
    await clockTo(6);
    expect(periods).toEqual([]);
    await settle(successor);
  });

  it('dates a lost subscription exactly, once, however often it flaps while down', async () => {
    const sut = ledger();
    sut.resumed();
    await clockTo(3);
    sut.interrupted(at(2), 'the subscription to primary was lost: connection reset');
    sut.interrupted(at(3), 'again');
    await clockTo(9);
    sut.resumed();
    await jest.advanceTimersByTimeAsync(0);
    expect(periods).toEqual([
      { from: iso(2), until: iso(9), reason: 'the subscription to primary was lost: connection reset' },
    ]);
    await settle(sut);
  });

  it('hands over: the next owner reports the period from when this one let go, with its reason', async () => {
    const first = ledger('notifier-a');
    first.resumed();
    await clockTo(4);
    await first.stop('the notifier let the cluster go');
    expect(store.mark).toMatchObject({ observedUntil: iso(4), observing: false });

    await clockTo(5);
    const second = ledger('notifier-b');
    second.resumed();
    await jest.advanceTimersByTimeAsync(0);
    expect(periods).toEqual([{ from: iso(4), until: iso(5), reason: 'the notifier let the cluster go' }]);
    await settle(second);
  });

  it('reads the mark again while the bus is away, and reports from it once read', async () => {
    store.mark = { observedUntil: iso(0), observing: true, owner: 'notifier-a' };
    store.failing = new Error('TIMEOUT');
    await clockTo(7);
    const sut = ledger('notifier-b');
    sut.resumed();
    await clockTo(20);
    expect(periods).toEqual([]);
    store.failing = null;
    await clockTo(25);
    expect(periods).toEqual([{ from: iso(0), until: iso(7), reason: STOPPED_UNANNOUNCED }]);
    await settle(sut);
  });

  it('states no period for a first observation whose mark could not be read at first', async () => {
    store.failing = new Error('TIMEOUT');
    const sut = ledger();
    sut.resumed();
    await clockTo(3);
    store.failing = null;
    await clockTo(10);
    expect(periods).toEqual([]);
    expect(store.mark).toMatchObject({ observing: true, owner: 'notifier-a' });
    await settle(sut);
  });

  it('says the start is unknown when it lets the cluster go before the mark could be read', async () => {
    store.mark = { observedUntil: iso(0), observing: true, owner: 'notifier-a' };
    store.failing = new Error('TIMEOUT');
    await clockTo(7);
    const sut = ledger('notifier-b');
    sut.resumed();
    await clockTo(9);
    await sut.stop('lease lost');
    expect(periods).toEqual([
      { from: null, until: iso(7), reason: expect.stringContaining('could not be read: TIMEOUT') },
    ]);
  });

  it('keeps its own interruption when the store cannot take it, and reports from it', async () => {
    const sut = ledger();
    sut.resumed();
    await jest.advanceTimersByTimeAsync(0);
    store.failing = new Error('no responders');
    await clockTo(6);
    sut.interrupted(at(6), 'lost');
    await jest.advanceTimersByTimeAsync(0);
    store.failing = null;
    await clockTo(8);
    sut.resumed();
    await jest.advanceTimersByTimeAsync(0);
    expect(periods).toEqual([{ from: iso(6), until: iso(8), reason: 'lost' }]);
    await settle(sut);
  });

  it('stops refreshing once interrupted, so a stale mark never claims observation', async () => {
    const sut = ledger();
    sut.resumed();
    await clockTo(1);
    sut.interrupted(at(1), 'lost');
    await clockTo(20);
    expect(store.mark).toEqual({
      observedUntil: iso(1),
      observing: false,
      owner: 'notifier-a',
      reason: 'lost',
    });
    await settle(sut);
  });

  describe('a handover (make before break)', () => {
    it('keeps observing until the successor is, and neither reports a period nor writes after it', async () => {
      const first = ledger('notifier-a');
      first.resumed();
      await clockTo(4);
      // Before the lease goes: a successor reading now sees a handover, not a crash.
      await first.announceHandover();
      expect(store.mark).toMatchObject({ owner: 'notifier-a', observedUntil: iso(4), handingOver: true });
      const handedOver = first.handOver(15_000);
      await clockTo(6);
      expect(store.mark).toMatchObject({ owner: 'notifier-a', observing: true, handingOver: true });

      const second = ledger('notifier-b');
      second.resumed();
      await clockTo(7);
      await expect(handedOver).resolves.toBe(true);
      await first.stop('the notifier let the cluster go');
      await clockTo(8);
      expect(periods).toEqual([]);
      expect(store.mark).toMatchObject({ owner: 'notifier-b', observing: true });
      expect(store.mark?.handingOver).toBeUndefined();
      await settle(second);
    });

    it('reports the period from the last handover mark when the one handing over died first', async () => {
      // notifier-a was handing over, last refreshed at 10 s, and was SIGKILLed.
      store.mark = { observedUntil: iso(10), observing: true, owner: 'notifier-a', handingOver: true };
      await clockTo(12);
      const second = ledger('notifier-b');
      second.resumed();
      await clockTo(15);
      expect(periods).toEqual([{ from: iso(10), until: iso(12), reason: HANDOVER_INTERRUPTED }]);
      await settle(second);
    });

    it('gives up at its deadline when no replica takes over, and stops as before', async () => {
      const first = ledger('notifier-a');
      first.resumed();
      await clockTo(1);
      const handedOver = first.handOver(3000);
      await clockTo(5);
      await expect(handedOver).resolves.toBe(false);
      await first.stop('the notifier let the cluster go');
      expect(store.mark).toMatchObject({ observing: false, reason: 'the notifier let the cluster go' });
    });

    it('does not hand over what it does not observe', async () => {
      const first = ledger('notifier-a');
      await expect(first.handOver(3000)).resolves.toBe(false);
      expect(store.written).toEqual([]);
      await first.stop('over');
    });
  });
});
