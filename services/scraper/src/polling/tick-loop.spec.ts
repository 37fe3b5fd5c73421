import { ClusterPoller } from './cluster-poller';
import { TIER_B_REQUESTS } from './tier-b';
import { STALLED_TICK_MS } from './tick-loop';
import { liveBroker, noMBean, ownedCluster, pollerDeps, TICK_MS } from './poller.fixture';

describe('ClusterPoller: a tick that does not end', () => {
  afterEach(() => jest.useRealTimers());

  it('is said in the log with the step it waits on, and again when it ends', async () => {
    jest.useFakeTimers();
    const warnings: string[] = [];
    let storeQueues = () => undefined as unknown;
    const poller = new ClusterPoller(
      ownedCluster(),
      pollerDeps({
        // Tier A finds the node live; tier B finds no queue and no address on it.
        jolokia: {
          bulk: async (_target, requests) =>
            requests === TIER_B_REQUESTS ? TIER_B_REQUESTS.map(() => noMBean) : liveBroker,
        },
        // The write of the queues waits, as on a row lock, until the test lets it go.
        queues: {
          sync: () =>
            new Promise(
              (resolve) =>
                (storeQueues = () => resolve({ changed: 0, removed: 0, sampled: 0, storedMissing: 0 })),
            ),
          clearNode: async () => 0,
        },
        intervals: () => ({ tierAMs: TICK_MS, tierBMs: TICK_MS }),
        log: { warn: (message) => void warnings.push(message) },
      }),
    );
    poller.start();
    await jest.advanceTimersByTimeAsync(STALLED_TICK_MS - 1);
    expect(warnings.filter((w) => w.includes('tier B'))).toEqual([]);
    await jest.advanceTimersByTimeAsync(2);
    expect(warnings.filter((w) => w.includes('tier B'))).toEqual([
      'cluster prod: tier B tick still running after 10 s, storing the queues of node primary',
    ]);
    await jest.advanceTimersByTimeAsync(5000);
    storeQueues();
    await jest.advanceTimersByTimeAsync(0);
    poller.stop();
    expect(warnings.filter((w) => w.includes('tier B'))).toEqual([
      'cluster prod: tier B tick still running after 10 s, storing the queues of node primary',
      'cluster prod: tier B tick ended after 15 s',
    ]);
    // Tier A went on meanwhile, every tick in time: nothing said of it.
    expect(warnings.filter((w) => w.includes('tier A'))).toEqual([]);
  });
});
