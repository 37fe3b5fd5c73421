import type { Replay } from './feed-history';
import { SseHub } from './sse-hub';
import { metrics, history, event, client, storedBus, settle } from './sse-hub.fixture';

describe('SseHub: a stored event the bus lost', () => {
  it('reads the hole from the store and sends everything in order, once', async () => {
    const { bus, publish } = storedBus();
    const m = metrics();
    const replay = jest.fn(async (): Promise<Replay> => ({ events: [event(12), event(13)] }));
    const sut = new SseHub(bus, history(replay), m);
    const c = client();
    await sut.open(c.sut);

    publish(10, 5);
    // 12 and 13 were committed and never published (the event store died, NATS restarted).
    publish(14, 13);
    publish(15, 14);
    await settle();

    expect(replay).toHaveBeenCalledWith('c', 10, 'oldest');
    expect(c.named('events').map((e) => e.seq)).toEqual([10, 12, 13, 14, 15]);
    expect(c.named('events').some((e) => 'prevSeq' in e)).toBe(false);
    expect(c.named('replay-gap')).toEqual([]);
    expect(m.repaired).toHaveBeenCalledWith(2);
  });

  it('tells the clients of a gap when the hole cannot be read, and goes on', async () => {
    const { bus, publish } = storedBus();
    const m = metrics();
    const sut = new SseHub(
      bus,
      history(() => Promise.reject(new Error('no responders'))),
      m,
      1,
    );
    const c = client();
    await sut.open(c.sut);

    publish(10, 5);
    publish(14, 13);
    // The read is asked once more, a millisecond later.
    await new Promise((r) => setTimeout(r, 20));

    expect(c.named('events').map((e) => e.seq)).toEqual([10, 14]);
    expect(c.named('replay-gap')).toEqual([
      { clusterId: 'c', lastEventId: 10, replayFrom: null, missed: null, reason: 'history-unavailable' },
    ]);
    expect(m.repairFailed).toHaveBeenCalledTimes(1);
  });

  it('sends what it could read of a hole longer than the cap, then says where the gap is', async () => {
    const { bus, publish } = storedBus();
    const sut = new SseHub(
      bus,
      history(async () => ({ events: [event(11), event(12)] })),
      metrics(),
    );
    const c = client();
    await sut.open(c.sut);
    publish(10, 5);
    publish(30, 29);
    await settle();
    expect(c.named('events').map((e) => e.seq)).toEqual([10, 11, 12, 30]);
    expect(c.named('replay-gap')).toEqual([
      { clusterId: 'c', lastEventId: 12, replayFrom: 30, missed: null, reason: 'replay-cap' },
    ]);
  });

  it('reads nothing while the chain is whole', async () => {
    const { bus, publish } = storedBus();
    const replay = jest.fn(async (): Promise<Replay> => ({ events: [] }));
    const sut = new SseHub(bus, history(replay), metrics());
    const c = client();
    await sut.open(c.sut);
    publish(10, 5);
    publish(11, 10);
    publish(20, 11);
    await settle();
    expect(replay).not.toHaveBeenCalled();
    expect(c.named('events').map((e) => e.seq)).toEqual([10, 11, 20]);
  });

  it("checks a new feed's first event too: one lost after a client's replay read is read back", async () => {
    const { bus, publish } = storedBus();
    const since = jest.fn(async (_c: string, after: number): Promise<Replay> => {
      // The client's replay was read before 10 was committed; the hole read finds it.
      return { events: after === 7 ? [event(8), event(9)] : [event(10)], skipped: 0 };
    });
    const sut = new SseHub(
      bus,
      history(since, async () => 9),
      metrics(),
    );
    const c = client(7);
    await sut.open(c.sut);
    // 10 was committed and its `event.stored` lost; 11 is the feed's first event.
    publish(11, 10);
    await settle();
    expect(since.mock.calls).toEqual([
      ['c', 7, 'newest'],
      ['c', 9, 'oldest'],
    ]);
    expect(c.named('events').map((e) => e.seq)).toEqual([8, 9, 10, 11]);
    expect(c.named('replay-gap')).toEqual([]);
  });

  it('still sends an event committed before that read, and published after it, to a client without a Last-Event-ID', async () => {
    const { bus, publish } = storedBus();
    const since = async (): Promise<Replay> => ({ events: [event(8), event(9)], skipped: 0 });
    const sut = new SseHub(
      bus,
      history(since, async () => 9),
      metrics(),
    );
    const resuming = client(7);
    const fresh = client();
    await sut.open(resuming.sut);
    await sut.open(fresh.sut);
    publish(9, 8);
    publish(10, 9);
    await settle();
    expect(fresh.named('events').map((e) => e.seq)).toEqual([9, 10]);
    expect(resuming.named('events').map((e) => e.seq)).toEqual([8, 9, 10]);
  });

  it('replays on a new feed only once it has read where the store stands', async () => {
    const { bus } = storedBus();
    let newest!: (seq: number) => void;
    const since = jest.fn(async (): Promise<Replay> => ({ events: [], skipped: 0 }));
    const sut = new SseHub(
      bus,
      history(since, () => new Promise((resolve) => (newest = resolve))),
      metrics(),
    );
    const first = sut.open(client(7).sut);
    const second = sut.open(client(3).sut);
    await settle();
    expect(since).not.toHaveBeenCalled();
    newest(9);
    await Promise.all([first, second]);
    expect(since).toHaveBeenCalledTimes(2);
  });

  it('tells a resuming client the history is unavailable when where the store stands cannot be read', async () => {
    const { bus } = storedBus();
    const m = metrics();
    const since = jest.fn(async (): Promise<Replay> => ({ events: [event(8)], skipped: 0 }));
    const newestSeq = jest.fn().mockRejectedValue(new Error('no responders'));
    const sut = new SseHub(bus, history(since, newestSeq), m, 1);
    const c = client(7);
    await sut.open(c.sut);
    expect(c.named('replay-gap')).toEqual([
      { clusterId: 'c', lastEventId: 7, replayFrom: null, missed: null, reason: 'history-unavailable' },
    ]);
    expect(since).not.toHaveBeenCalled();
    expect(m.replayFailed).toHaveBeenCalledTimes(1);
    // The next client to resume asks again.
    newestSeq.mockResolvedValue(8);
    const next = client(7);
    await sut.open(next.sut);
    expect(next.named('events').map((e) => e.seq)).toEqual([8]);
  });
});
