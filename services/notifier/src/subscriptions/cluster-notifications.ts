import type { CapabilityVerdict, LiveNode, LiveNodeSet } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import { assessNotifications, sameVerdict, type SubscriptionState } from '../capabilities/verdict';
import {
  IDLE_TIMEOUT_MS,
  NotificationSubscription,
  sentAt,
  silenceLimitMs,
  type SubscriptionOptions,
} from './notification-subscription';
import type { CreditGate } from '../publishing/credit-gate';
import type { Receipt } from '../publishing/event-publisher';
import type { ObservationLedger } from './observation-ledger';
import { goneWithItsNodes, interruptedBecause } from './unobserved-reasons';

export interface ClusterNotificationsDeps {
  containerId: string;
  creditWindow: number;
  gate: CreditGate;
  /** The AMQP idle timeout of every subscription (IDLE_TIMEOUT_MS by default). */
  idleTimeoutMs?: number;
  onNotification(
    clusterId: string,
    node: string,
    properties: Record<string, unknown> | undefined,
    receipt: Receipt,
  ): void;
  putVerdict(clusterId: string, verdict: CapabilityVerdict): void;
  /** Where the periods in which some live node went unobserved are kept and reported. */
  ledger: ObservationLedger;
  now?: () => Date;
  /** Makes one node's subscription (a real AMQP receiver unless a test stands in for it). */
  subscribe?: (options: SubscriptionOptions) => NodeSubscription;
}

/** What this class uses of a node's subscription. */
export type NodeSubscription = Pick<NotificationSubscription, 'amqpUrl' | 'ring' | 'start' | 'stop'>;

/**
 * The notification subscriptions of one owned cluster: exactly one per live node with an AMQP
 * URL, reconciled from the live-node set the scraper observes (ADR-0026), so a failover is
 * followed by observation. Keeps the cluster's capability verdict and writes it when it changes.
 */
export class ClusterNotifications {
  private readonly subscriptions = new Map<string, NodeSubscription>();
  /**
   * A node's previous subscription while its next one comes up (its ring made, or given up): it
   * keeps the node observed until then, make before break. Duplicates get one event id.
   */
  private readonly retiring = new Map<string, NodeSubscription>();
  private readonly states = new Map<string, SubscriptionState>();
  /** Nodes whose current subscription has had a first outcome. */
  private readonly settled = new Set<string>();
  private liveNodes: LiveNode[] | null = null;
  /** Live nodes that stopped answering with no backup taking over: unobserved until they are back. */
  private unseen: string[] = [];
  private verdict?: CapabilityVerdict;
  private stopped = false;
  /** When each subscribed node was last heard from (subscribed, or a notification): epoch ms. */
  private readonly lastHeard = new Map<string, number>();
  /** Whether every wanted node is subscribed, as last told to the ledger. */
  private observing = false;
  /** Since when the rings held everything, at the last look: a change while observing dates the mark. */
  private ringsHeld?: number;
  /**
   * When the nodes that left the live set were last heard, for the next observe(), whoever calls
   * it first: a new node's subscription reports its state as it starts, inside apply(), and that
   * call would otherwise open the period at "now" without them.
   */
  private gone: { node: string; heard: number }[] = [];
  private readonly idleTimeoutMs: number;

  constructor(
    readonly target: ClusterTarget,
    private readonly deps: ClusterNotificationsDeps,
  ) {
    this.idleTimeoutMs = deps.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  }

  /** Brings the subscriptions in line with who is live now. */
  apply(set: LiveNodeSet | null): void {
    if (this.stopped) return;
    // Counted as observed until now: subscribed, or held by a ring while the subscription is down.
    // A node that leaves the live set took its ring with it (a failover: its notifications were
    // not replicated), so what it held is a gap from when it was last heard.
    const observed = new Set(
      [...this.subscriptions.keys()].filter(
        (n) => this.states.get(n)?.state === 'subscribed' || this.heldByRing(n),
      ),
    );
    this.liveNodes = set ? set.nodes : this.liveNodes;
    if (set) this.unseen = (set.unseen ?? []).map((u) => u.name);
    const wanted = new Map((this.liveNodes ?? []).filter((n) => n.amqpUrl).map((n) => [n.name, n]));
    // When the nodes no longer wanted were last heard: a node that took over from one started about then.
    for (const [node, subscription] of this.subscriptions) {
      const want = wanted.get(node);
      if (want?.amqpUrl === subscription.amqpUrl && want.ring?.queue === subscription.ring) continue;
      this.subscriptions.delete(node);
      this.settled.delete(node);
      if (want?.amqpUrl === subscription.amqpUrl && this.states.get(node)?.state === 'subscribed') {
        // The same node, read another way (its ring made or given up): the old way reads on until
        // the new one is up.
        void this.retiring.get(node)?.stop();
        this.retiring.set(node, subscription);
        continue;
      }
      void subscription.stop();
      if (observed.has(node))
        this.gone.push({ node, heard: this.lastHeard.get(node) ?? this.now().getTime() });
      this.states.delete(node);
      this.lastHeard.delete(node);
    }
    for (const [node, retired] of this.retiring)
      if (!wanted.has(node)) {
        void retired.stop();
        this.retiring.delete(node);
      }
    for (const [node, { amqpUrl, ring }] of wanted) {
      if (this.subscriptions.has(node)) continue;
      const subscribe = this.deps.subscribe ?? ((options) => new NotificationSubscription(options));
      const subscription: NodeSubscription = subscribe({
        node: { name: node, amqpUrl: amqpUrl!, ring: ring?.queue },
        credential: this.credential(),
        containerId: this.deps.containerId,
        creditWindow: this.deps.creditWindow,
        gate: this.deps.gate,
        idleTimeoutMs: this.idleTimeoutMs,
        onNotification: (properties, receipt) => {
          this.lastHeard.set(node, sentAt(properties, this.now().getTime()));
          this.deps.onNotification(this.target.id, node, properties, receipt);
        },
        onState: (state) => this.onState(node, subscription, state),
      });
      this.subscriptions.set(node, subscription);
      if (!this.retiring.has(node)) this.states.set(node, { node, state: 'connecting' });
      subscription.start();
    }
    this.observe();
    this.assess();
  }

  /** Whether every live node is subscribed: the moment this turns true ends an unobserved period. */
  isObserving(): boolean {
    return this.observing;
  }

  /** The nodes currently subscribed. */
  subscribedNodes(): string[] {
    return [...this.states.values()].filter((s) => s.state === 'subscribed').map((s) => s.node);
  }

  /** Says, before the lease is given back, that this replica observes until a successor does. */
  announceHandover(): Promise<void> {
    return this.deps.ledger.announceHandover();
  }

  /**
   * Keeps observing until the next owner is (true), for at most `deadlineMs` or until `abandon`:
   * the lease is already given back. stop() follows either way.
   */
  handOver(deadlineMs: number, abandon?: AbortSignal): Promise<boolean> {
    return this.deps.ledger.handOver(deadlineMs, abandon);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.subscriptions.values(), ...this.retiring.values()].map((s) => s.stop()));
    this.subscriptions.clear();
    this.retiring.clear();
    await this.deps.ledger.stop(
      'the notifier let the cluster go (a handover, a changed registration or a shutdown)',
    );
  }

  /** The AMQP credential defaults to the Jolokia one, then anonymous. */
  private credential() {
    return this.target.credentials.AMQP ?? this.target.credentials.JOLOKIA;
  }

  private onState(node: string, subscription: NodeSubscription, state: SubscriptionState): void {
    if (this.stopped || this.subscriptions.get(node) !== subscription) return;
    const retired = this.retiring.get(node);
    if (retired) {
      // Still coming up: the old subscription reads on, and the node's state is still its.
      if (state.state === 'connecting') return;
      this.retiring.delete(node);
      void retired.stop();
    }
    const was = this.states.get(node)?.state;
    this.states.set(node, state);
    if (state.state === 'subscribed') this.lastHeard.set(node, this.now().getTime());
    if (state.state !== 'connecting') this.settled.add(node);
    this.observe(was === 'subscribed' && state.state === 'failed' ? state.message : undefined);
    this.assess();
  }

  /**
   * Tells the ledger when the cluster stops or starts being fully observed: every live node with
   * an AMQP URL subscribed. A lost subscription is dated from when its node was last heard from,
   * but no earlier than the silence limit before it was noticed: a connection still open was
   * receiving then, heartbeats if nothing else, and a silent network cut is noticed only after it.
   * A node that just became live is dated from now: what it sent before the scraper reported it
   * live cannot be known here. While the credit gate is held, nothing is received and the broker
   * holds what it sends: a subscription lost then is dated from when it was last heard from, or
   * from when the holding began if that is later.
   */
  private observe(lostBecause?: string): void {
    const gone = this.gone;
    this.gone = [];
    const wanted = [...this.subscriptions.keys()];
    const unobserved = [
      ...wanted.filter((n) => this.states.get(n)?.state !== 'subscribed' && !this.heldByRing(n)),
      ...this.unseen,
    ];
    const observing = wanted.length > 0 && unobserved.length === 0;
    const ringsHold = this.ringsHoldSince()?.getTime();
    if (observing && this.observing && ringsHold !== this.ringsHeld && ringsHold !== undefined)
      this.deps.ledger.refreshNow();
    this.ringsHeld = ringsHold;
    const now = this.now().getTime();
    // What a broker held for us while the gate was shut went with the subscription's queue.
    const earliest = Math.min(now - silenceLimitMs(this.idleTimeoutMs), this.deps.gate.heldSince() ?? now);
    // What a gone node held undelivered went with it, whatever the rings of the nodes still live
    // say: it is stated on its own, from when the node was last heard. Observed until now, to now;
    // with a period already open (its successor came up first), back from that period's start;
    // unseen from now on (it may serve), the period opening now starts from then.
    let goneFrom: number | undefined;
    if (gone.length > 0) {
      const from = new Date(Math.max(Math.min(...gone.map((g) => g.heard)), earliest));
      const reason = goneWithItsNodes(gone.map((g) => g.node));
      if (!this.observing) this.deps.ledger.reachBack(from, reason);
      else if (observing || this.unseen.length === 0) this.deps.ledger.missed(from, new Date(now), reason);
      else goneFrom = from.getTime();
    }
    if (observing === this.observing) return;
    this.observing = observing;
    if (observing) return this.deps.ledger.resumed(this.ringsHoldSince());
    const since = Math.min(
      goneFrom ?? now,
      ...unobserved.map((n) => Math.max(this.lastHeard.get(n) ?? now, earliest)),
    );
    const reason = interruptedBecause({ lostBecause, unseen: this.unseen, wanted, unobserved });
    this.deps.ledger.interrupted(new Date(since), reason);
  }

  private now(): Date {
    return (this.deps.now ?? (() => new Date()))();
  }

  /** The ring a live node has (per the scraper), when its subscription reads that ring. */
  private ringOf(node: string) {
    const ring = this.liveNodes?.find((n) => n.name === node)?.ring;
    return ring && this.subscriptions.get(node)?.ring === ring.queue ? ring : undefined;
  }

  /**
   * A node whose subscription is down is still observed when its ring has held every notification
   * since before it was last heard from: the next subscription reads them (ADR-0015).
   */
  private heldByRing(node: string): boolean {
    const ring = this.ringOf(node);
    const heard = this.lastHeard.get(node);
    return ring !== undefined && heard !== undefined && Date.parse(ring.since) <= heard;
  }

  /**
   * Since when every live node's ring has held everything: what a predecessor missed after that
   * is read from the rings. Undefined when some node has no ring.
   */
  private ringsHoldSince(): Date | undefined {
    const nodes = [...this.subscriptions.keys()].map((n) => this.ringOf(n));
    if (nodes.length === 0 || nodes.some((r) => r === undefined)) return undefined;
    return new Date(Math.max(...nodes.map((r) => Date.parse(r!.since))));
  }

  private assess(): void {
    const reconciled =
      this.liveNodes !== null && [...this.subscriptions.keys()].every((n) => this.settled.has(n));
    const verdict = assessNotifications(
      {
        liveNodes: this.liveNodes,
        subscriptions: [...this.states.values()],
        reconciled,
        user: this.credential()?.username ?? null,
        jolokiaUser: this.target.credentials.JOLOKIA?.username ?? null,
      },
      this.now(),
    );
    // UNKNOWN is not written: an absent verdict already reads as UNKNOWN, and a takeover must not
    // overwrite the previous owner's verdict with "don't know" while it reconnects.
    if (verdict.status === 'UNKNOWN' || sameVerdict(this.verdict, verdict)) return;
    this.verdict = verdict;
    this.deps.putVerdict(this.target.id, verdict);
  }
}
