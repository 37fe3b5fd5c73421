import { Connection, ConnectionEvents, ReceiverEvents, type EventContext } from 'rhea-promise';

interface BrokerNode {
  name: string;
  amqpUrl: string;
}

/** The notifications a phase caused, as the broker acknowledged them to the churn's own clients. */
export interface Caused {
  /** Receivers the broker attached: each made a CONSUMER_CREATED. */
  created: number;
  /** Receivers the broker detached: each made a CONSUMER_CLOSED. */
  closed: number;
  /** Cycles that failed part-way (the broker went away): what they caused is uncertain. */
  interrupted: number;
}

/** How long a spread slot stays on another node before it tries its own again. */
const HOME_AGAIN_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for `work` at most `ms`: an AMQP close towards a node that went away may never be answered. */
const atMost = (work: Promise<unknown>, ms: number) => Promise.race([work.catch(() => undefined), sleep(ms)]);

/** An AMQP connection to whichever node of a live/backup pair accepts clients now (a passive backup does not). */
async function connectToLive(
  nodes: BrokerNode[],
  user: string,
  password: string,
): Promise<Connection & { node?: BrokerNode }> {
  let last: unknown;
  for (const node of nodes) {
    const { hostname, port } = new URL(node.amqpUrl);
    const connection = new Connection({
      host: hostname,
      port: Number(port),
      username: user,
      password,
      reconnect: false,
      // A node going away mid-call must fail the call, not leave it waiting for ever.
      operationTimeoutInSeconds: 5,
    });
    try {
      return Object.assign(await connection.open(), { node });
    } catch (err) {
      last = err;
    }
  }
  throw last;
}

/**
 * Churn on the broker: receivers attach to and detach from queues named `faults.<phase>.<slot>`,
 * each attach and detach a consumer notification, at a steady pace. Follows a failover: a slot
 * whose connection died reconnects to the node that is live now. What the broker acknowledged is
 * counted per phase, which is what the fault suite compares with what was stored.
 */
export class NotificationChurn {
  private readonly slots: (Promise<Connection> | undefined)[];
  /** Spread slots connected to another node than their own (it was down): since when. */
  private readonly awaySince = new Map<number, number>();
  private phase = 'start';
  private running = false;
  private readonly cycles = new Set<Promise<void>>();
  readonly caused = new Map<string, Caused>();
  /**
   * Per phase, for each attach and detach the broker acknowledged: when it was asked and when it
   * answered (epoch ms). The broker sent its notification in between.
   */
  readonly causedBetween = new Map<string, [number, number][]>();

  constructor(
    private readonly nodes: BrokerNode[],
    private readonly user: string,
    private readonly password: string,
    connections = 10,
    private readonly holdMs = 500,
    /** Several live nodes (a cluster): each slot starts from its own node, so all of them churn. */
    private readonly spread = false,
  ) {
    this.slots = Array.from({ length: connections }, () => undefined);
  }

  setPhase(phase: string): void {
    this.phase = phase;
  }

  /** Runs `cyclesPerSecond` attach/detach cycles per second until stop(). */
  start(cyclesPerSecond: number): void {
    this.running = true;
    void this.pace(cyclesPerSecond);
  }

  /** Runs `count` cycles at once and waits for them: calibration. */
  async burst(count: number): Promise<void> {
    await Promise.all(Array.from({ length: count }, (_, i) => this.cycle(i % this.slots.length)));
  }

  async stop(): Promise<void> {
    this.running = false;
    await atMost(Promise.all(this.cycles), 15_000);
    await atMost(Promise.all(this.slots.map(async (s) => (await s)?.close())), 5000);
  }

  private async pace(cyclesPerSecond: number): Promise<void> {
    const tickMs = 20;
    const started = performance.now();
    let due = 0;
    let n = 0;
    for (let tick = 0; this.running; tick++) {
      due += (cyclesPerSecond * tickMs) / 1000;
      for (; due >= 1; due--) {
        const cycle = this.cycle(n++ % this.slots.length);
        this.cycles.add(cycle);
        void cycle.finally(() => this.cycles.delete(cycle));
      }
      const next = started + (tick + 1) * tickMs;
      if (next > performance.now()) await sleep(next - performance.now());
    }
  }

  private counts(phase: string): Caused {
    let c = this.caused.get(phase);
    if (!c) this.caused.set(phase, (c = { created: 0, closed: 0, interrupted: 0 }));
    return c;
  }

  private acknowledged(phase: string, askedAt: number): void {
    let spans = this.causedBetween.get(phase);
    if (!spans) this.causedBetween.set(phase, (spans = []));
    spans.push([askedAt, Date.now()]);
  }

  private connection(slot: number): Promise<Connection> {
    let connection = this.slots[slot];
    if (!connection) {
      const from = this.spread ? slot % this.nodes.length : 0;
      const nodes = [...this.nodes.slice(from), ...this.nodes.slice(0, from)];
      connection = connectToLive(nodes, this.user, this.password).then((c) => {
        if (this.spread && c.node !== nodes[0]) this.awaySince.set(slot, Date.now());
        else this.awaySince.delete(slot);
        c.on(ConnectionEvents.disconnected, () => {
          if (this.slots[slot] === connection) this.slots[slot] = undefined;
        });
        return c;
      });
      // A failed connect is retried by the next cycle of the slot, not in a loop of its own.
      connection.catch(() => {
        if (this.slots[slot] === connection) this.slots[slot] = undefined;
      });
      this.slots[slot] = connection;
    }
    return connection;
  }

  private goHome(slot: number): void {
    const connection = this.slots[slot];
    this.slots[slot] = undefined;
    this.awaySince.delete(slot);
    void connection?.then((c) => c.close()).catch(() => undefined);
  }

  private async cycle(slot: number): Promise<void> {
    const phase = this.phase;
    const counts = this.counts(phase);
    const queue = `faults.${phase}.${slot}`;
    let attached = false;
    try {
      const connection = await this.connection(slot);
      const attachAsked = Date.now();
      const receiver = await connection.createReceiver({
        source: { address: queue, capabilities: ['queue'] },
      });
      attached = true;
      counts.created++;
      this.acknowledged(phase, attachAsked);
      await sleep(this.holdMs);
      const detachAsked = Date.now();
      await receiver.close();
      counts.closed++;
      this.acknowledged(phase, detachAsked);
      // Away from its own node for a while: try it again, so a node that comes back churns again.
      if (Date.now() - (this.awaySince.get(slot) ?? Infinity) > HOME_AGAIN_MS) this.goHome(slot);
    } catch {
      if (attached) counts.interrupted++;
      const connection = this.slots[slot];
      this.slots[slot] = undefined;
      void connection?.then((c) => c.close()).catch(() => undefined);
    }
  }
}

/**
 * How many notifications one attach and detach makes on this broker (sessions, consumers, and
 * whatever else the version sends), counted by `watcher` over 50 cycles: what sets the pace.
 */
export async function notificationsPerCycle(
  churn: NotificationChurn,
  watcher: BrokerWatcher,
): Promise<number> {
  await sleep(1000);
  const before = watcher.total;
  await churn.burst(50);
  await sleep(1500);
  return (watcher.total - before) / 50;
}

/**
 * An independent subscriber to `activemq.notifications` on the live node, reconnecting to
 * whichever node is live: the broker's own count of the consumer notifications per phase,
 * beside the churn's count of what it caused.
 */
export class BrokerWatcher {
  readonly seen = new Map<string, number>();
  total = 0;
  private readonly connections = new Set<Connection>();
  private running = true;

  /** `each`: several live nodes (a cluster), each sending its own notifications: one subscriber per node. */
  constructor(
    nodes: BrokerNode[],
    private readonly user: string,
    private readonly password: string,
    each = false,
  ) {
    for (const group of each ? nodes.map((n) => [n]) : [nodes]) void this.run(group);
  }

  async stop(): Promise<void> {
    this.running = false;
    await atMost(Promise.all([...this.connections].map((c) => c.close())), 5000);
  }

  private async run(nodes: BrokerNode[]): Promise<void> {
    while (this.running) {
      let connection: Connection | undefined;
      try {
        connection = await connectToLive(nodes, this.user, this.password);
        this.connections.add(connection);
        const lost = new Promise<void>((resolve) =>
          connection!.on(ConnectionEvents.disconnected, () => resolve()),
        );
        const receiver = await connection.createReceiver({
          source: { address: 'activemq.notifications' },
          credit_window: 1000,
        });
        receiver.on(ReceiverEvents.message, (ctx: EventContext) => this.count(ctx));
        await lost;
      } catch {
        // The live node is changing over: try again shortly.
      }
      if (connection) this.connections.delete(connection);
      await connection?.close().catch(() => undefined);
      if (this.running) await sleep(250);
    }
  }

  private count(ctx: EventContext): void {
    this.total++;
    const props = ctx.message?.application_properties ?? {};
    const queue = String(props._AMQ_RoutingName ?? '');
    const type = String(props._AMQ_NotifType ?? '');
    // In a cluster each node also re-sends its peers' consumer notifications (_AMQ_Distance 1): the
    // broker's own count is of those its node made, as the notifier stores them.
    if (Number(props._AMQ_Distance ?? 0) > 0) return;
    if (!queue.startsWith('faults.') || !type.startsWith('CONSUMER_')) return;
    const phase = queue.split('.')[1];
    this.seen.set(phase, (this.seen.get(phase) ?? 0) + 1);
  }
}
