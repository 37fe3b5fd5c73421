/**
 * The scale rig's notifications (issue 32, item 5): real notifier replicas subscribed to every
 * simulated live node (libs/testing/src/notification-simulator.ts, its messages the real Artemis
 * 2.40's, checked against it by notification-simulator.int-spec.ts), a steady rate of
 * notifications shared by the clusters as their queues are, and a burst into one cluster every few
 * seconds. Measured per replica count: the notifiers' CPU per 1,000 notifications, how the
 * clusters split between them, and whether every notification caused reached the stream.
 */
import { UNOBSERVED_EVENT_TYPE, channels, subjectPatterns, type Lease } from '@artemis-studio/contracts';
import type { Bus, TypedKv } from '@artemis-studio/bus';
import { NotificationSimulator, spawnService, type ServiceProcess } from '@artemis-studio/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMsOf } from './process-stats';
import { crashOne, ownersOf, queueSplit, type Crash } from './fleet-ownership';

export interface NotificationRigOptions {
  bus: Bus;
  /** Every service's environment: NATS, the database, the lease TTL. */
  env: Record<string, string>;
  clusterIds: string[];
  queueCounts: number[];
  sim: NotificationSimulator;
  leases: TypedKv<Lease>;
  leaseTtlMs: number;
  /**
   * Notifier replica counts, one configuration each. Then one more replica joins the last one
   * (a rebalance), and the first replica is SIGKILLed.
   */
  replicaCounts: number[];
  seconds: number;
  /** Notifications into one cluster at once, every BURST_EVERY_MS. */
  burst: number;
  progress(step: string): void;
}

interface NotifierFigures {
  replicas: number;
  caused: number;
  /** Events the stream took, once the notifiers caught up: as many as were caused, or fewer. */
  published: number;
  /** Events on the stream twice (one event id on two messages). */
  twice: number;
  perSecond: number;
  cpuMsPer1000: number;
  /** The notifiers' CPU per second of the window, all replicas: what they cost at this rate, idle costs included. */
  cpuMsPerSecond: number;
  /** Each replica's share of the fleet's queues, largest first. */
  split: number[];
  /** The most notifications waiting for a notifier's credit at once, in the simulator. */
  peakBacklog: number;
}

interface Rebalance {
  /** Replicas before one joined. */
  from: number;
  /** Clusters whose owner changed; `movedElsewhere` of them not to the replica that joined. */
  moved: number;
  movedElsewhere: number;
  /** From the new replica's start until ownership and subscriptions settled. */
  settledAfterMs: number;
  caused: number;
  published: number;
  twice: number;
  unobserved: number;
  split: number[];
}

export interface NotificationResults {
  figures: NotifierFigures[];
  /** A replica joining the last configuration, before the crash. */
  rebalance?: Rebalance;
  /** `unobserved`: the periods the surviving notifiers stated for the killed one's clusters. */
  crash?: Crash & { caused: number; published: number; twice: number; unobserved: number };
  /** Messages the rig's consumer was given again: counted once, said so it is known. */
  redelivered?: number;
}

const BURST_EVERY_MS = 5_000;
/** How long the pipeline may take to publish what the window caused. */
const CATCH_UP_MS = 20_000;

export async function measureNotifiers(options: NotificationRigOptions): Promise<NotificationResults> {
  const { sim, clusterIds, queueCounts, leases, progress } = options;
  // Every event the stream takes, read by a consumer of the rig's own: the notifications, and apart
  // from them the unobserved periods the notifiers state. A message the consumer is given again
  // (its ack lost) is counted once; an event id on two of the stream's messages is an event stored
  // twice (the stream refuses a repeated id within its window, as deployed).
  const taken = { notifications: 0, unobserved: 0, redelivered: 0, twice: 0 };
  const ids = new Set<string>();
  let lastSeq = 0;
  const reading = options.bus.consume(
    channels.eventRaw,
    { durable: 'scale-rig', filterSubject: subjectPatterns.eventRaw() },
    (event, delivery) => {
      delivery.ack();
      if (delivery.streamSeq <= lastSeq) {
        taken.redelivered++;
        return;
      }
      lastSeq = delivery.streamSeq;
      if (ids.has(event.eventId)) taken.twice++;
      ids.add(event.eventId);
      if (event.type === UNOBSERVED_EVENT_TYPE) taken.unobserved++;
      else taken.notifications++;
    },
  );
  const caused = () => sim.caused.reduce((a, b) => a + b, 0);
  const split = (byCluster: Map<string, string>) => queueSplit(byCluster, clusterIds, queueCounts);
  /** Every cluster's live node with exactly one subscriber: each cluster read by one notifier. */
  const subscribedOnce = () => sim.subscribers().every((n) => n === 1);

  let replicas: ServiceProcess[] = [];
  const stopAll = async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    replicas = [];
  };
  const rate = sim.perSecond;
  let bursts = 0;
  let paused = false;
  const bursting = setInterval(() => {
    if (!paused) sim.burst(bursts++ % clusterIds.length, options.burst);
  }, BURST_EVERY_MS);
  const mark = () => ({
    caused: caused(),
    published: taken.notifications,
    twice: taken.twice,
    unobserved: taken.unobserved,
  });
  const pause = () => {
    sim.perSecond = 0;
    paused = true;
  };
  const resume = () => {
    sim.perSecond = rate;
    paused = false;
  };
  /** Pauses until nothing is in flight (nothing waits for credit, the stream took nothing for two seconds): a start. */
  const quiesce = async () => {
    pause();
    const deadline = Date.now() + CATCH_UP_MS;
    // Still for two looks in a row: a batch the notifier retries can take longer than a second.
    let still = 0;
    let last = -1;
    while (still < 2 && Date.now() < deadline) {
      still = taken.notifications === last && sim.backlog() === 0 ? still + 1 : 0;
      last = taken.notifications;
      await sleep(1000);
    }
    const now = mark();
    resume();
    return now;
  };
  /**
   * Stops causing notifications and waits for the stream to take what was caused since `from`:
   * what it then lacks is lost. Counted while notifications go on, a loss would hide behind the
   * later ones published.
   */
  const settle = async (from: ReturnType<typeof mark>) => {
    pause();
    const causedSince = caused() - from.caused;
    const caughtUpBy = Date.now() + CATCH_UP_MS;
    while (taken.notifications - from.published < causedSince && Date.now() < caughtUpBy) await sleep(250);
    const published = taken.notifications - from.published;
    resume();
    return {
      caused: causedSince,
      published,
      twice: taken.twice - from.twice,
      unobserved: taken.unobserved - from.unobserved,
    };
  };
  const spawn = async (i: number) =>
    replicas.push(
      await spawnService('notifier', 18_801 + i, { ...options.env, STUDIO_REPLICA_ID: `notifier-${i}` }),
    );
  /**
   * Until every cluster is owned, by `count` replicas in all, each live node subscribed once (a
   * handover's overlap over), and the owners unchanged for two looks a second apart.
   */
  const settledOn = async (count: number) => {
    const deadline = Date.now() + 4 * options.leaseTtlMs;
    let last = '';
    for (;;) {
      const owners = await ownersOf(leases, 'notifier', clusterIds);
      const key = JSON.stringify([...owners.entries()].sort());
      const settled =
        owners.size === clusterIds.length && new Set(owners.values()).size === count && subscribedOnce();
      if (settled && key === last) return owners;
      if (Date.now() > deadline)
        throw new Error(
          `notifiers did not settle: ${owners.size} of ${clusterIds.length} clusters owned, ${sim.subscribers().filter((n) => n === 1).length} subscribed once`,
        );
      last = settled ? key : '';
      await sleep(1000);
    }
  };
  const results: NotificationResults = { figures: [] };
  try {
    for (const count of options.replicaCounts) {
      progress(
        `notifications: ${count} notifier replica(s), ${sim.perSecond}/s and a burst of ${options.burst} every ${BURST_EVERY_MS / 1000} s`,
      );
      for (let i = 0; i < count; i++) await spawn(i);
      const owners = await settledOn(count);
      // A few seconds at the rate first, so the window holds no subscription's start; then the
      // window starts with nothing in flight, so what it counts on the stream is its own.
      await sleep(5_000);
      const start = await quiesce();
      const cpuBefore = replicas.map((r) => cpuMsOf(r.pid));
      const startedAt = Date.now();
      let peakBacklog = 0;
      while (Date.now() - startedAt < options.seconds * 1000) {
        await sleep(250);
        peakBacklog = Math.max(peakBacklog, sim.backlog());
      }
      const seconds = (Date.now() - startedAt) / 1000;
      const cpuMs = replicas.reduce((sum, r, i) => sum + cpuMsOf(r.pid) - cpuBefore[i], 0);
      const inWindow = await settle(start);
      const figures: NotifierFigures = {
        replicas: count,
        caused: inWindow.caused,
        published: inWindow.published,
        twice: inWindow.twice,
        perSecond: inWindow.caused / seconds,
        cpuMsPer1000: inWindow.caused > 0 ? cpuMs / (inWindow.caused / 1000) : 0,
        cpuMsPerSecond: cpuMs / seconds,
        split: split(owners),
        peakBacklog,
      };
      progress(`  ${JSON.stringify(figures)}`);
      results.figures.push(figures);
      if (count !== options.replicaCounts.at(-1)) await stopAll();
    }

    if (replicas.length > 0) {
      // A replica joins: the clusters it is now the preferred owner of move to it, each handed over
      // (observed by both until the new owner is, duplicates removed by their ids), the rest stay.
      const from = replicas.length;
      const before = await quiesce();
      const ownersBefore = await ownersOf(leases, 'notifier', clusterIds);
      progress(`a notifier joins ${from}`);
      const joinedAt = Date.now();
      await spawn(from);
      const ownersAfter = await settledOn(from + 1);
      const settledAfterMs = Date.now() - joinedAt;
      const since = await settle(before);
      const moved = clusterIds.filter((id) => ownersAfter.get(id) !== ownersBefore.get(id));
      results.rebalance = {
        from,
        moved: moved.length,
        movedElsewhere: moved.filter((id) => ownersAfter.get(id) !== `notifier-${from}`).length,
        settledAfterMs,
        ...since,
        split: split(ownersAfter),
      };
      progress(`  ${JSON.stringify(results.rebalance)}`);
    }

    if (replicas.length > 1) {
      const before = await quiesce();
      progress(`SIGKILL to notifier-0`);
      const crash = await crashOne(
        leases,
        'notifier',
        clusterIds,
        { process: replicas[0], id: 'notifier-0' },
        3 * options.leaseTtlMs,
        subscribedOnce,
      );
      replicas = replicas.slice(1);
      const since = await settle(before);
      results.crash = { ...crash, ...since };
      progress(`  ${JSON.stringify(results.crash)}`);
    }
  } finally {
    clearInterval(bursting);
    await stopAll();
    await reading.stop();
    results.redelivered = taken.redelivered;
  }
  return results;
}
