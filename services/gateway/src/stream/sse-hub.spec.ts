import type { Bus } from '@artemis-studio/bus';
import type { Replay } from './feed-history';
import { SseHub } from './sse-hub';
import { quietBus, metrics, history, event, client } from './sse-hub.fixture';

describe('SseHub replay', () => {
  it('says how many events the replay cap left out, and where the replay resumes', async () => {
    const replay = async (): Promise<Replay> => ({ events: [event(90), event(91)], skipped: 303 });
    const sut = new SseHub(quietBus(), history(replay), metrics());
    const c = client(7);
    await sut.open(c.sut);
    expect(c.named('replay-gap')).toEqual([
      { clusterId: 'c', lastEventId: 7, replayFrom: 90, missed: 303, reason: 'replay-cap' },
    ]);
    expect(c.named('events').map((e) => e.seq)).toEqual([90, 91]);
  });

  it('says nothing when the replay covers the gap', async () => {
    const sut = new SseHub(
      quietBus(),
      history(async () => ({ events: [event(8)], skipped: 0 })),
      metrics(),
    );
    const c = client(7);
    await sut.open(c.sut);
    expect(c.named('replay-gap')).toEqual([]);
  });

  it('asks for a replay once more before it says the history is unavailable', async () => {
    const m = metrics();
    const replay = jest
      .fn<Promise<Replay>, []>()
      .mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'))
      .mockResolvedValueOnce({ events: [event(8)], skipped: 0 });
    const sut = new SseHub(quietBus(), history(replay), m, 1);
    const c = client(7);
    await sut.open(c.sut);
    expect(replay).toHaveBeenCalledTimes(2);
    expect(c.named('replay-gap')).toEqual([]);
    expect(c.named('events').map((e) => e.seq)).toEqual([8]);
    expect(m.replayFailed).not.toHaveBeenCalled();
  });

  it('says the history is unavailable when the replay cannot be read, and goes live', async () => {
    const m = metrics();
    const sut = new SseHub(
      quietBus(),
      history(() => Promise.reject(new Error('no responders'))),
      m,
      1,
    );
    const c = client(7);
    await sut.open(c.sut);
    expect(c.named('replay-gap')).toEqual([
      { clusterId: 'c', lastEventId: 7, replayFrom: null, missed: null, reason: 'history-unavailable' },
    ]);
    expect(m.replayFailed).toHaveBeenCalledTimes(1);
    c.sut.event(event(8));
    expect(c.named('events').map((e) => e.seq)).toEqual([8]);
  });

  it('opens a client without a Last-Event-ID only once the subscription is confirmed', async () => {
    let confirm!: () => void;
    const flushed = new Promise<void>((resolve) => (confirm = resolve));
    const bus = { subscribe: () => () => undefined, flush: () => flushed } as unknown as Bus;
    const sut = new SseHub(
      bus,
      history(async () => ({ events: [] })),
      metrics(),
    );
    let opened = false;
    const opening = sut.open(client().sut).then(() => (opened = true));
    await new Promise((r) => setImmediate(r));
    expect(opened).toBe(false);
    confirm();
    await opening;
    expect(opened).toBe(true);
  });

  it('ends every stream of a removed cluster and releases its subscription', async () => {
    const sut = new SseHub(
      quietBus(),
      history(async () => ({ events: [] })),
      metrics(),
    );
    const c = client();
    await sut.open(c.sut);
    sut.clusterRemoved('c');
    expect(c.named('cluster-removed')).toEqual([{ clusterId: 'c', ts: expect.any(String) }]);
    expect(sut.subscribedClusters()).toEqual([]);
  });
});

describe('SseHub: the bus back after an outage', () => {
  it('tells every client that each topic it holds changed, once, since the signals sent meanwhile were lost', async () => {
    const sut = new SseHub(
      quietBus(),
      history(async () => ({ events: [] })),
      metrics(),
    );
    const queues = client(undefined, ['queues', 'health', 'events']);
    const events = client(undefined, ['events']);
    await sut.open(queues.sut);
    await sut.open(events.sut);
    sut.resync();
    expect(queues.named('queues')).toEqual([{ topic: 'queues', clusterId: 'c', ts: expect.any(String) }]);
    expect(queues.named('health')).toHaveLength(1);
    expect(queues.named('topology')).toEqual([]);
    expect(events.frames).toEqual([]);
  });
});
