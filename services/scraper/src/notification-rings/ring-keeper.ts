import type { DropReport, LiveNode, LiveNodeSet } from '@artemis-studio/contracts';
import type { JolokiaClient, JolokiaResponse, JolokiaTarget } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import {
  discardedBy,
  parseRingQueues,
  type RingReading,
  planRing,
  ringCall,
  ringQueueName,
  ringReportId,
  type RingStep,
} from './notification-ring';

/** A start time (now less the uptime) moves by the read's latency from one poll to the next. */
const RESTART_TOLERANCE_MS = 5000;

/**
 * Past this without a reading (three tier-A polls as deployed), a ring may have filled and been
 * drained again unseen: its drop report says so, with the period since the last reading.
 */
const UNSEEN_AFTER_MS = 15_000;

export type RingState = NonNullable<LiveNode['ring']>;
export type RingOfNode = Pick<LiveNode, 'ring' | 'noRing'>;

/** Why there is no ring when `size()` is 0: the cluster's own choice, or the setting. */
export const RING_OFF = {
  cluster: "turned off for this cluster (its registration's notificationRing)",
  setting: 'turned off (artemis-studio.notifications.ring-size is 0)',
} as const;

export interface RingKeeperDeps {
  jolokia: Pick<JolokiaClient, 'bulk'>;
  /** Management calls go one at a time per broker, with actions and browsing. */
  lanes: Pick<BrokerLanes, 'run'>;
  /** The setting, read at every tick: 0 is no ring. */
  size(): number;
  /** Why `size()` is 0, when it is (the setting's reason by default). */
  offReason?(): string;
  /** Adds a count of discarded notifications to the cluster's drops; throws when not recorded. */
  reportDrops(report: DropReport): Promise<unknown>;
  log: { warn(message: string, fields?: { clusterId: string; node?: string }): void };
}

/** One live node as tier A just saw it, with the second read of its poll (the notification queues). */
export interface RingNode {
  name: string;
  broker: string;
  target: JolokiaTarget;
  /** The answer to RING_QUEUES_REQUEST in this tick's poll; undefined when the node was not polled. */
  answer: JolokiaResponse | undefined;
  /** When the broker started (its uptime subtracted from now), when known. */
  startedAt: Date | null;
}

/**
 * Whether the ring may have been full since it was last read: it discards only when full, and it
 * can have filled only if what it held then and what was added since reach its size. Unknown (no
 * reading before, or a handover's) counts as may.
 */
function mayHaveBeenFull(kept: Kept, found: RingReading): boolean {
  if (kept.added === undefined || kept.held === undefined) return true;
  return kept.held + (found.added - kept.added) >= found.ringSize;
}

interface Kept {
  since: Date;
  /** Discards already reported (or in a report not yet acknowledged). */
  reported: number;
  /** A report sent and not acknowledged: sent again as it is, so it is never counted twice. */
  pending?: DropReport;
  sending?: boolean;
  /** MessagesAdded at the last reading: it never falls but when the queue was made again. */
  added?: number;
  /** MessageCount at the last reading. */
  held?: number;
  /** Whether the ring may have been full since the reading before the last (see `mayHaveBeenFull`). */
  fullBefore?: boolean;
  /** When it was last read (by the previous owner, when handed on); unset after a broker restart. */
  readAt?: number;
}

/**
 * Keeps Studio's durable ring of notifications on every live node of one cluster (ADR-0015): made
 * with its bound when missing, resized when the setting changes, destroyed when turned off; what
 * it discarded is reported as a drop. Says, per node, what the notifier may consume.
 */
export class RingKeeper {
  private readonly kept = new Map<string, Kept>();
  private readonly unwantedSince = new Map<string, number>();
  /** Why the broker last refused a change to a node's ring. */
  private readonly refusals = new Map<string, string>();
  /** Nodes with a change under way. */
  private readonly changing = new Set<string>();
  readonly queue: string;

  /** What the previous owner said of each node's ring, read before the first tick: its count and date carry on. */
  private handedOn?: Promise<void>;

  constructor(
    private readonly clusterId: string,
    private readonly deps: RingKeeperDeps,
    previous: () => Promise<LiveNodeSet | null> = async () => null,
  ) {
    this.queue = ringQueueName(clusterId);
    this.handedOn = previous().then(
      (set) => {
        // Read by the previous owner when it last said so: unseen since then.
        const readAt = set ? Date.parse(set.asOf) : undefined;
        for (const node of set?.nodes ?? [])
          if (node.ring?.queue === this.queue)
            this.kept.set(node.name, {
              since: new Date(node.ring.since),
              reported: node.ring.discarded,
              readAt,
            });
      },
      // Unknown: the rings vouch for nothing before this replica saw them, and that is stated.
      () => undefined,
    );
  }

  /**
   * Brings one node's ring in line with the setting: what the live-node set says of it. Never waits
   * on the broker: a management call waits its turn behind actions (a purge can hold a broker's lane
   * for minutes), and tier A must not. The change is made meanwhile, and the next poll reads it.
   */
  async keep(node: RingNode, now: Date): Promise<RingOfNode> {
    await this.handedOn;
    const size = this.deps.size();
    const readings = parseRingQueues(node.answer);
    // Not read this tick: what was known stands (a blip must not switch the notifier's mode).
    if (readings === null) return this.stateOf(node.name, size);
    const found = readings.find((r) => r.name === this.queue);
    const unwantedSince = size === 0 && found ? (this.unwantedSince.get(node.name) ?? now.getTime()) : null;
    if (unwantedSince === null) this.unwantedSince.delete(node.name);
    else this.unwantedSince.set(node.name, unwantedSince);
    this.change(node, planRing(size, found, now.getTime() - (unwantedSince ?? now.getTime())));
    // A queue without a bound (made by someone else) is no ring until it has one.
    if (size === 0 || !found || found.ringSize <= 0) {
      this.kept.delete(node.name);
      return this.stateOf(node.name, size);
    }
    const kept = this.continuity(node, found, now);
    // Added is read first, so a read while notifications flow mostly undercounts the discards (a
    // fast drain moves notifications from held to acknowledged between two attributes): a rise is
    // a loss, or the rest of one an earlier read undercounted, and a dip is such a read. But the
    // broker takes a notification out of the held count before it counts it acknowledged, and a
    // read between the two counts it discarded: a rise is believed only if the ring may have been
    // full since the reading before the last.
    const reset = found.added < (kept.added ?? 0);
    if (reset && !kept.pending) kept.reported = 0; // counters reset: the queue made again
    const full = reset || mayHaveBeenFull(kept, found);
    const lastRead = kept.readAt === undefined ? kept.since : new Date(kept.readAt);
    const believed = full || kept.fullBefore ? discardedBy(found) : kept.reported;
    this.reportDiscards(node.name, kept, believed, lastRead, now);
    kept.fullBefore = full;
    kept.added = found.added;
    kept.held = found.messageCount;
    kept.readAt = now.getTime();
    return { ring: this.ringState(kept, found.ringSize) };
  }

  /** Destroys the ring on every node given (the cluster was deleted): best effort, logged. */
  async remove(nodes: Omit<RingNode, 'answer' | 'startedAt'>[]): Promise<void> {
    await Promise.all(
      nodes.map(async (node) => {
        // Its notifier lets go once it sees the cluster gone; past the grace, it is removed under it.
        const deadline = Date.now() + 10_000;
        while (
          (await this.run(node, { kind: 'destroy', removeConsumers: Date.now() >= deadline })) !== null
        ) {
          if (Date.now() >= deadline + 1000) return;
          await new Promise((resolve) => setTimeout(resolve, 1000).unref());
        }
      }),
    );
  }

  private stateOf(node: string, size: number): RingOfNode {
    const kept = this.kept.get(node);
    if (size === 0) return { noRing: this.deps.offReason?.() ?? RING_OFF.setting };
    if (kept) return { ring: this.ringState(kept, size) };
    const refused = this.refusals.get(node);
    return { noRing: refused ? `the broker refused to make it: ${refused}` : 'being made' };
  }

  private ringState(kept: Kept, size: number): RingState {
    return { queue: this.queue, size, since: kept.since.toISOString(), discarded: kept.reported };
  }

  /** Runs the steps in the background, one change at a time per node. */
  private change(node: RingNode, steps: RingStep[]): void {
    if (steps.length === 0 || this.changing.has(node.name)) return;
    this.changing.add(node.name);
    void (async () => {
      for (const step of steps) {
        const refused = await this.run(node, step);
        if (refused === null) this.refusals.delete(node.name);
        else this.refusals.set(node.name, refused);
      }
    })().finally(() => this.changing.delete(node.name));
  }

  /**
   * The ring has held every notification since it was first seen, unless the broker restarted
   * since: notifications are not persistent, so a restart empties the ring (the queue itself is
   * durable and comes back) and resets its counters. First seen by this replica with nothing
   * handed on, it vouches for nothing before now.
   */
  private continuity(node: RingNode, found: RingReading, now: Date): Kept {
    const kept = this.kept.get(node.name);
    const restarted =
      kept && node.startedAt && node.startedAt.getTime() > kept.since.getTime() + RESTART_TOLERANCE_MS;
    if (kept && !restarted) return kept;
    // After a restart the counters start again with the ring, unseen since; first seen, what the
    // ring discarded before is not this replica's to vouch for.
    const fresh: Kept = restarted
      ? { since: node.startedAt!, reported: 0 }
      : {
          since: now,
          reported: discardedBy(found),
          readAt: now.getTime(),
          added: found.added,
          held: found.messageCount,
        };
    this.kept.set(node.name, fresh);
    return fresh;
  }

  /**
   * Counts new discards at once (the set says so); the report, which says since when they may have
   * been made, goes in the background, retried each tick.
   */
  private reportDiscards(node: string, kept: Kept, discarded: number, lastRead: Date, now: Date): void {
    if (!kept.pending && discarded > kept.reported) {
      // Unread for a while (Studio away, polls failing), the ring may have filled and drained unseen.
      const unseen = now.getTime() - lastRead.getTime() > UNSEEN_AFTER_MS;
      kept.pending = {
        reportId: ringReportId(this.clusterId, node, kept.since.toISOString(), discarded),
        clusterId: this.clusterId,
        source: 'broker-ring',
        count: discarded - kept.reported,
        reason: unseen
          ? `Studio's ring on ${node} was full at some time between ${lastRead.toISOString()} and ${now.toISOString()}, unread meanwhile: the broker discarded its oldest notifications before a notifier read them`
          : `Studio's ring on ${node} was full: the broker discarded its oldest notifications before a notifier read them`,
        from: lastRead.toISOString(),
        ts: now.toISOString(),
      };
      kept.reported = discarded;
    }
    const report = kept.pending;
    if (!report || kept.sending) return;
    kept.sending = true;
    this.deps
      .reportDrops(report)
      .then(
        () => {
          if (kept.pending === report) kept.pending = undefined;
        },
        (err: Error) =>
          this.deps.log.warn(`ring discards on ${node} not recorded yet: ${err.message}`, {
            clusterId: this.clusterId,
            node,
          }),
      )
      .finally(() => (kept.sending = false));
  }

  /** Null when the broker did it (or it was already so); why not, otherwise. */
  private async run(node: Omit<RingNode, 'answer' | 'startedAt'>, step: RingStep): Promise<string | null> {
    let why: string;
    try {
      const [answer] = await this.deps.lanes.run(node.target.nodeKey, () =>
        this.deps.jolokia.bulk(node.target, [ringCall(node.broker, this.queue, step)], MANAGEMENT_CALL),
      );
      if (answer.status === 200) return null;
      why = answer.error ?? `status ${answer.status}`;
      // Destroying what is already gone is done.
      if (step.kind === 'destroy' && /AMQ229017|does not exist/i.test(why)) return null;
    } catch (err) {
      why = (err as Error).message;
    }
    this.deps.log.warn(`cannot ${step.kind} Studio's notification ring on ${node.name}: ${why}`, {
      clusterId: this.clusterId,
      node: node.name,
    });
    return why;
  }
}
