import { SIGNAL_TOPICS } from '@artemis-studio/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PauseSignal } from '../freshness/pause';
import { queryKeys, TOPIC_QUERY_KEYS } from '../query-keys';
import { FakeEventSource } from '../testing/fake-event-source';
import { StreamRegistry } from './stream-registry';

const CLUSTER = '4f1c0b0e-8a4e-4c55-9a39-3b4f5f1f3a11';
const signal = (topic: string) => ({ topic, clusterId: CLUSTER, ts: new Date().toISOString() });

function setUp() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  const pause = new PauseSignal();
  const sut = new StreamRegistry({
    queryClient,
    pause,
    watchdogMs: () => 45_000,
    createEventSource: (url) => new FakeEventSource(url),
  });
  /** Resolves once no query is fetching: a refetch asked for meanwhile would join the one in flight. */
  const settled = () => vi.waitFor(() => expect(queryClient.isFetching()).toBe(0));
  return { queryClient, pause, sut, settled };
}

describe('StreamRegistry', () => {
  beforeEach(() => {
    FakeEventSource.opened = [];
  });
  afterEach(() => vi.useRealTimers());

  it('shares one stream per cluster between its components, with the union of their topics', () => {
    const { sut } = setUp();
    const releaseA = sut.acquire(CLUSTER, ['queues']);
    const releaseB = sut.acquire(CLUSTER, ['events', 'topology']);
    const url = new URL(FakeEventSource.latest().url, 'http://x');
    expect(url.searchParams.get('topics')).toBe('topology,queues,events');
    expect(FakeEventSource.opened.filter((s) => !s.closed)).toHaveLength(1);
    releaseA();
    releaseB();
  });

  it('maps every signal topic to query keys of its own cluster', () => {
    for (const topic of SIGNAL_TOPICS) {
      const keys = TOPIC_QUERY_KEYS[topic](CLUSTER);
      expect(keys.length).toBeGreaterThan(0);
      // Or a list across clusters that includes this one (the clusters, the alerts).
      for (const key of keys)
        expect(['clusters', 'alerts'].includes(key[0] as string) || key[1] === CLUSTER).toBe(true);
    }
  });

  it('a signal refetches exactly the queries of its topic', async () => {
    const { sut, queryClient, settled } = setUp();
    const keys = [
      queryKeys.topology(CLUSTER),
      queryKeys.queuePage(CLUSTER, { page: 1 }),
      queryKeys.liveList(CLUSTER, 'consumers'),
    ];
    const fetched: string[] = [];
    const unsubscribe = keys.map((queryKey) =>
      new QueryObserver(queryClient, {
        queryKey,
        staleTime: Infinity,
        queryFn: async () => fetched.push(String(queryKey[2])),
      }).subscribe(() => undefined),
    );
    await vi.waitFor(() => expect(fetched).toHaveLength(3));
    await settled();
    sut.acquire(CLUSTER, ['queues']);
    FakeEventSource.latest().open(); // the stream coming up refetches the cluster's queries once
    await vi.waitFor(() => expect(fetched).toHaveLength(6));
    await settled();
    fetched.length = 0;
    FakeEventSource.latest().send('queues', signal('queues'));
    await vi.waitFor(() => expect(fetched).toEqual(['queues']));
    await settled();
    FakeEventSource.latest().send('consumers', signal('consumers'));
    await vi.waitFor(() => expect(fetched).toEqual(['queues', 'consumers']));
    unsubscribe.forEach((u) => u());
  });

  it("a signal during a query's first fetch asks again: the answer in flight may predate the change", async () => {
    const { sut, queryClient, settled } = setUp();
    sut.acquire(CLUSTER, ['queues']);
    FakeEventSource.latest().open();
    // The first answer is read before the change and held in flight; the second after it.
    let depth = 0;
    const answers: (() => void)[] = [];
    const observer = new QueryObserver(queryClient, {
      queryKey: queryKeys.queuePage(CLUSTER, { page: 1 }),
      staleTime: Infinity,
      queryFn: () => {
        const read = depth;
        return new Promise<number>((resolve) => answers.push(() => resolve(read)));
      },
    });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(answers).toHaveLength(1));
    depth = 30;
    FakeEventSource.latest().send('queues', signal('queues'));
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers.forEach((answer) => answer());
    await settled();
    expect(observer.getCurrentResult().data).toBe(30);
    unsubscribe();
  });

  it('while paused, signals mark data stale and count as waiting; resume refetches once', async () => {
    const { sut, queryClient, pause, settled } = setUp();
    let fetches = 0;
    const observer = new QueryObserver(queryClient, {
      queryKey: queryKeys.queuePage(CLUSTER, {}),
      staleTime: Infinity,
      queryFn: async () => ++fetches,
    });
    const unsubscribe = observer.subscribe(() => undefined);
    pause.onResume(() => void queryClient.refetchQueries({ type: 'active' }));
    await vi.waitFor(() => expect(fetches).toBe(1));
    await settled();
    sut.acquire(CLUSTER, ['queues']);
    FakeEventSource.latest().open();
    await vi.waitFor(() => expect(fetches).toBe(2)); // the stream came up: one catch-up fetch
    await settled();

    pause.pause();
    for (let i = 0; i < 3; i++) FakeEventSource.latest().send('queues', signal('queues'));
    await new Promise((r) => setTimeout(r, 50));
    expect(fetches).toBe(2);
    expect(pause.get()).toEqual({ paused: true, waiting: 3 });
    expect(queryClient.getQueryState(queryKeys.queuePage(CLUSTER, {}))?.isInvalidated).toBe(true);

    pause.resume();
    await vi.waitFor(() => expect(fetches).toBe(3));
    await new Promise((r) => setTimeout(r, 50));
    expect(fetches).toBe(3);
    expect(pause.get()).toEqual({ paused: false, waiting: 0 });
    unsubscribe();
  });
});
