import type { CapabilityVerdict, LiveNode, LiveNodeSet } from '@artemis-studio/contracts';
import type { ClusterTarget } from '@artemis-studio/db';
import { assessNotifications, sameVerdict, type SubscriptionState } from '../capabilities/verdict';
import { NotificationSubscription } from './notification-subscription';

export interface ClusterNotificationsDeps {
  containerId: string;
  creditWindow: number;
  onNotification(clusterId: string, node: string, properties: Record<string, unknown> | undefined): void;
  putVerdict(clusterId: string, verdict: CapabilityVerdict): void;
  now?: () => Date;
}

/**
 * The notification subscriptions of one owned cluster: exactly one per live node with an AMQP
 * URL, reconciled from the live-node set the scraper observes (ADR-0026), so a failover is
 * followed by observation. Keeps the cluster's capability verdict and writes it when it changes.
 */
export class ClusterNotifications {
  private readonly subscriptions = new Map<string, NotificationSubscription>();
  private readonly states = new Map<string, SubscriptionState>();
  /** Nodes whose current subscription has had a first outcome. */
  private readonly settled = new Set<string>();
  private liveNodes: LiveNode[] | null = null;
  private verdict?: CapabilityVerdict;
  private stopped = false;

  constructor(
    readonly target: ClusterTarget,
    private readonly deps: ClusterNotificationsDeps,
  ) {}

  /** Brings the subscriptions in line with who is live now. */
  apply(set: LiveNodeSet | null): void {
    if (this.stopped) return;
    this.liveNodes = set ? set.nodes : this.liveNodes;
    const wanted = new Map((this.liveNodes ?? []).filter((n) => n.amqpUrl).map((n) => [n.name, n.amqpUrl!]));
    for (const [node, subscription] of this.subscriptions) {
      if (wanted.get(node) === subscription.amqpUrl) continue;
      void subscription.stop();
      this.subscriptions.delete(node);
      this.states.delete(node);
      this.settled.delete(node);
    }
    for (const [node, amqpUrl] of wanted) {
      if (this.subscriptions.has(node)) continue;
      const subscription = new NotificationSubscription({
        node: { name: node, amqpUrl },
        credential: this.credential(),
        containerId: this.deps.containerId,
        creditWindow: this.deps.creditWindow,
        onNotification: (properties) => this.deps.onNotification(this.target.id, node, properties),
        onState: (state) => this.onState(node, subscription, state),
      });
      this.subscriptions.set(node, subscription);
      this.states.set(node, { node, state: 'connecting' });
      subscription.start();
    }
    this.assess();
  }

  /** The nodes currently subscribed. */
  subscribedNodes(): string[] {
    return [...this.states.values()].filter((s) => s.state === 'subscribed').map((s) => s.node);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.subscriptions.values()].map((s) => s.stop()));
    this.subscriptions.clear();
  }

  /** The AMQP credential defaults to the Jolokia one, then anonymous. */
  private credential() {
    return this.target.credentials.AMQP ?? this.target.credentials.JOLOKIA;
  }

  private onState(node: string, subscription: NotificationSubscription, state: SubscriptionState): void {
    if (this.stopped || this.subscriptions.get(node) !== subscription) return;
    this.states.set(node, state);
    if (state.state !== 'connecting') this.settled.add(node);
    this.assess();
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
      },
      (this.deps.now ?? (() => new Date()))(),
    );
    // UNKNOWN is not written: an absent verdict already reads as UNKNOWN, and a takeover must not
    // overwrite the previous owner's verdict with "don't know" while it reconnects.
    if (verdict.status === 'UNKNOWN' || sameVerdict(this.verdict, verdict)) return;
    this.verdict = verdict;
    this.deps.putVerdict(this.target.id, verdict);
  }
}
