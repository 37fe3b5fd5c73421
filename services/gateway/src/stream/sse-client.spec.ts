import type { BrokerEvent } from '@artemis-studio/contracts';
import { SseClient, type StreamSink } from './sse-client';

class Sink implements StreamSink {
  frames: string[] = [];
  writableLength = 0;
  ended = false;
  write(chunk: string | Uint8Array) {
    this.frames.push(Buffer.from(chunk).toString());
    return true;
  }
  end() {
    this.ended = true;
  }
}

const event = (seq: number) => ({ seq, clusterId: 'c', type: 'T' }) as BrokerEvent;
const ids = (sink: Sink) =>
  sink.frames.filter((f) => f.startsWith('id:')).map((f) => Number(f.split('\n')[0].slice(4)));
const hooks = () => ({ slow: jest.fn(), frame: jest.fn() });
const bounds = { maxBufferedBytes: 8 * 1024 * 1024, maxLagMs: 10_000 };

describe('SseClient', () => {
  it('sends signal frames only for its topics, and events with their seq as id', () => {
    const sink = new Sink();
    const sut = new SseClient('c', new Set(['queues', 'events'] as const), sink, undefined, bounds, hooks());
    sut.finishReplay([]);
    sut.signal({ topic: 'queues', clusterId: 'c', ts: 't' });
    sut.signal({ topic: 'topology', clusterId: 'c', ts: 't' });
    sut.event(event(5));
    expect(sink.frames).toEqual([
      'event: queues\ndata: {"topic":"queues","clusterId":"c","ts":"t"}\n\n',
      `id: 5\nevent: events\ndata: ${JSON.stringify(event(5))}\n\n`,
    ]);
  });

  it('joins replay and live without a gap or a duplicate at the seam', () => {
    const sink = new Sink();
    const sut = new SseClient('c', new Set(['events'] as const), sink, 10, bounds, hooks());
    // Live events arrive while the replay is read: some overlap it, some come after.
    sut.event(event(14));
    sut.event(event(13));
    sut.event(event(16));
    sut.finishReplay([event(11), event(12), event(13), event(14)]);
    sut.event(event(16));
    sut.event(event(17));
    expect(ids(sink)).toEqual([11, 12, 13, 14, 16, 17]);
  });

  it('never resends what the client already has (Last-Event-ID)', () => {
    const sink = new Sink();
    const sut = new SseClient('c', new Set(['events'] as const), sink, 20, bounds, hooks());
    sut.finishReplay([]);
    sut.event(event(19));
    sut.event(event(21));
    expect(ids(sink)).toEqual([21]);
  });

  it('keeps a client through a burst, and cuts it off when its backlog outlasts the lag bound', () => {
    const sink = new Sink();
    const h = hooks();
    let now = 0;
    const sut = new SseClient('c', new Set(['queues'] as const), sink, undefined, bounds, h, () => now);
    sut.finishReplay([]);
    const signal = { topic: 'queues' as const, clusterId: 'c', ts: 't' };
    sink.writableLength = 500_000; // a burst the socket has not taken yet
    sut.signal(signal);
    now = 9_000;
    sut.signal(signal);
    expect(sink.ended).toBe(false);
    sink.writableLength = 1000; // drained: the backlog is over
    sut.signal(signal);
    sink.writableLength = 500_000;
    now = 12_000;
    sut.signal(signal);
    now = 22_001;
    sut.checkLag();
    expect(sink.ended).toBe(true);
    expect(h.slow).toHaveBeenCalledWith(sut);
    expect(sink.frames).toHaveLength(4);
  });

  it('cuts off at once past the hard byte bound', () => {
    const sink = new Sink();
    const h = hooks();
    const sut = new SseClient('c', new Set(['queues'] as const), sink, undefined, bounds, h, () => 0);
    sut.finishReplay([]);
    sink.writableLength = bounds.maxBufferedBytes + 1;
    sut.signal({ topic: 'queues', clusterId: 'c', ts: 't' });
    expect(sink.ended).toBe(true);
    expect(sink.frames).toHaveLength(0);
  });
});

describe('SseClient, announced gaps and removal', () => {
  it('announces a replay gap, with the cursor it had, before the replayed events', () => {
    const sink = new Sink();
    const sut = new SseClient('c', new Set(['events'] as const), sink, 10, bounds, hooks());
    sut.finishReplay([event(41), event(42)], { replayFrom: 41, missed: 30, reason: 'replay-cap' });
    expect(sink.frames[0]).toBe(
      'event: replay-gap\ndata: {"clusterId":"c","lastEventId":10,"replayFrom":41,"missed":30,"reason":"replay-cap"}\n\n',
    );
    expect(ids(sink)).toEqual([41, 42]);
  });

  it('ends the stream after saying the cluster was removed', () => {
    const sink = new Sink();
    const sut = new SseClient('c', new Set(['queues'] as const), sink, undefined, bounds, hooks());
    sut.finishReplay([]);
    sut.clusterRemoved(Buffer.from('event: cluster-removed\ndata: {}\n\n'));
    sut.ping();
    expect(sink.frames).toEqual(['event: cluster-removed\ndata: {}\n\n']);
    expect(sink.ended).toBe(true);
  });
});
