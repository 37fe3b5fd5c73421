import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeEventSource } from '../testing/fake-event-source';
import { ClusterStream, type StreamListener } from './cluster-stream';

const CLUSTER = '4f1c0b0e-8a4e-4c55-9a39-3b4f5f1f3a11';
const WINDOW = 45_000;
const event = (seq: number) => ({
  seq,
  eventId: `0190c1d2-0000-7000-8000-${String(seq).padStart(12, '0')}`,
  clusterId: CLUSTER,
  node: 'n1',
  type: 'CONSUMER_CREATED',
  brokerTs: null,
  receivedAt: '2026-11-30T10:00:00.000Z',
  address: 'a',
  queue: 'q',
  consumer: null,
  session: null,
  connection: null,
  remoteAddress: null,
  user: null,
  props: {},
});

function streamWith(listener: StreamListener = {}) {
  const sut = new ClusterStream(CLUSTER, ['queues', 'events'], {
    watchdogMs: () => WINDOW,
    createEventSource: (url) => new FakeEventSource(url),
    random: () => 0,
  });
  sut.listen(listener);
  sut.start();
  return sut;
}

describe('ClusterStream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeEventSource.opened = [];
  });
  afterEach(() => vi.useRealTimers());

  it('is live once open, and a silent stream is closed and reopened when the watchdog expires', () => {
    const sut = streamWith();
    FakeEventSource.latest().open();
    expect(sut.status.state).toBe('live');
    vi.advanceTimersByTime(WINDOW - 1);
    expect(sut.status.state).toBe('live');
    vi.advanceTimersByTime(1);
    expect(sut.status).toMatchObject({ state: 'reconnecting', lastFailure: 'nothing heard for 45 s' });
    expect(FakeEventSource.opened[0].closed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.opened).toHaveLength(2);
  });

  it('counts a ping as a sign of life: the watchdog restarts at every frame', () => {
    const sut = streamWith();
    const source = FakeEventSource.latest();
    source.open();
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(WINDOW - 1000);
      source.send('ping', { ts: new Date().toISOString() });
    }
    expect(sut.status.state).toBe('live');
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it('reconnects forever, with growing waits, and resumes after the last event it saw', () => {
    const events: number[] = [];
    const sut = streamWith({ event: (e) => events.push(e.seq) });
    FakeEventSource.latest().open();
    FakeEventSource.latest().send('events', event(7));
    FakeEventSource.latest().send('events', event(9));
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      FakeEventSource.latest().fail();
      waits.push(sut.status.nextAttemptAt! - Date.now());
      vi.advanceTimersByTime(waits[i]);
    }
    expect(sut.status.state).toBe('reconnecting');
    expect(FakeEventSource.opened).toHaveLength(13);
    expect(waits.every((w) => w >= 1000 && w <= 30_000)).toBe(true);
    expect(events).toEqual([7, 9]);
    expect(new URL(FakeEventSource.latest().url, 'http://x').searchParams.get('lastEventId')).toBe('9');
    FakeEventSource.latest().open();
    expect(sut.status.state).toBe('live');
  });

  it('tries at once when told the browser is back online', () => {
    const sut = streamWith();
    FakeEventSource.latest().fail();
    expect(FakeEventSource.opened).toHaveLength(1);
    sut.reconnectNow();
    expect(FakeEventSource.opened).toHaveLength(2);
  });

  it('stops for good when the cluster is removed', () => {
    const removed = vi.fn();
    const sut = streamWith({ removed });
    FakeEventSource.latest().open();
    FakeEventSource.latest().send('cluster-removed', { clusterId: CLUSTER, ts: new Date().toISOString() });
    expect(sut.status.state).toBe('removed');
    expect(removed).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * WINDOW);
    expect(FakeEventSource.opened).toHaveLength(1);
  });

  it('keeps the replay gap it was told of, and skips frames that break their contract', () => {
    const gap = vi.fn();
    const sut = streamWith({ gap });
    FakeEventSource.latest().open();
    const frame = { clusterId: CLUSTER, lastEventId: 3, replayFrom: 400, missed: 303, reason: 'replay-cap' };
    FakeEventSource.latest().send('replay-gap', frame);
    FakeEventSource.latest().send('queues', '{not json');
    FakeEventSource.latest().send('events', { seq: 'x' });
    expect(gap).toHaveBeenCalledWith(frame);
    expect(sut.status).toMatchObject({ lastGap: frame, malformedFrames: 2 });
  });
});
