import type { Bus } from '@artemis-studio/bus';
import type { BrokerEvent, Topic } from '@artemis-studio/contracts';
import { SseClient, type StreamSink } from './sse-client';
import type { FeedHistory, ReplayRead } from './feed-history';

/** The hub's bus: subscriptions are taken and released, nothing arrives. */
export const quietBus = () =>
  ({ subscribe: () => () => undefined, flush: () => Promise.resolve() }) as unknown as Bus;
export const metrics = () => ({
  clients: jest.fn(),
  replayed: jest.fn(),
  replayFailed: jest.fn(),
  repaired: jest.fn(),
  repairFailed: jest.fn(),
});
/** The store as the hub reads it: `since` for replays, and a newest seq of 0 unless given. */
export const history = (
  since: ReplayRead,
  newestSeq: FeedHistory['newestSeq'] = async () => 0,
): FeedHistory => ({
  since,
  newestSeq,
});
const bounds = { maxBufferedBytes: 1 << 20, maxLagMs: 10_000 };
export const event = (seq: number) => ({ seq, clusterId: 'c', type: 'T' }) as BrokerEvent;

export function client(lastEventId?: number, topics: readonly Topic[] = ['events']) {
  const frames: string[] = [];
  const sink: StreamSink = {
    write: (chunk) => frames.push(Buffer.from(chunk).toString()) > 0,
    writableLength: 0,
    end: () => undefined,
  };
  const sut = new SseClient('c', new Set(topics), sink, lastEventId, bounds, {
    slow: jest.fn(),
    frame: jest.fn(),
  });
  const named = (name: string) =>
    frames
      .filter((f) => f.replace(/^id: \d+\n/, '').startsWith(`event: ${name}\n`))
      .map((f) => JSON.parse(f.split('data: ')[1]));
  return { sut, frames, named };
}

/** A bus whose `event.stored` subscription the test feeds by hand. */
export function storedBus() {
  const handlers = new Map<string, (message: unknown) => void>();
  const bus = {
    subscribe: (channel: { name: string }, _subject: string, handler: (message: unknown) => void) => {
      handlers.set(channel.name, handler);
      return () => handlers.delete(channel.name);
    },
    flush: () => Promise.resolve(),
  } as unknown as Bus;
  const publish = (seq: number, prevSeq: number) => handlers.get('event.stored')!({ ...event(seq), prevSeq });
  return { bus, publish };
}

export const settle = () => new Promise((r) => setImmediate(r));
