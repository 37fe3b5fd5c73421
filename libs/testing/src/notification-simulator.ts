import type { AddressInfo, Server, Socket } from 'node:net';
import { create_container, message, types, type EventContext, type Sender, type Typed } from 'rhea';
import { NOTIFICATION_ADDRESS } from '@artemis-studio/contracts';
import { seeded } from './seeded';
import {
  notificationRecording,
  replaced,
  typed,
  type NotificationRecording,
  type PropertyValue,
} from './notification-recording';

export interface NotificationSimulatorOptions {
  /** Each cluster's live node and its queues, named as the Jolokia simulator names them. */
  clusters: { queues: number }[];
  /** Notifications per second across the fleet, shared by the clusters as their queues are. */
  perSecond: number;
  seed?: number;
}

/** The largest backlog a subscriber without credit is given before the simulator counts drops. */
const MAX_BACKLOG = 1_000_000;
/** How long stop() lets subscribers answer the close before it cuts their connections. */
const CLOSE_GRACE_MS = 1000;
/** How often the steady rate is paid out. */
const PACE_MS = 20;

/** A subscriber's link and what waits for its credit, as in the temporary queue the broker makes it. */
interface Subscriber {
  sender: Sender;
  backlog: Outgoing[];
  /** The backlog's first unsent notification. */
  head: number;
  /** Handed to rhea for this link: rhea writes them as credit comes, and counts them then. */
  handed: number;
}

/**
 * What rhea has not written of what it was handed. rhea queues a send without credit rather than
 * refuse it, and takes the credit off only as it writes (its session's process()), so its
 * `sendable()` says yes to every send of one turn: handed more than the credit, the backlog would
 * move into rhea's queue, unbounded and unseen.
 */
function unwritten(subscriber: Subscriber): number {
  return subscriber.handed - flowOf(subscriber.sender).delivery_count;
}

/** The link's flow state, which rhea keeps on the link and leaves out of its typings. */
function flowOf(sender: Sender): { credit: number; delivery_count: number } {
  return sender as unknown as { credit: number; delivery_count: number };
}

/** A notification encoded once, as the broker writes it, for every subscriber. */
type Outgoing = Buffer;

/** AMQP's message format, the only one a notification comes in. */
const MESSAGE_FORMAT = 0;

/**
 * A body that adds no section: the broker's notifications have none, and rhea writes an empty
 * amqp-value for a message without a body unless its body collects its own sections.
 */
const NO_BODY = { collect_sections: () => undefined };

interface SimCluster {
  queues: number;
  server: Server;
  /** Every connection accepted, so stop() can end them whether or not their peer closes. */
  sockets: Set<Socket>;
  subscribers: Set<Subscriber>;
  /** Notifications owed by the steady rate and not yet a whole cycle. */
  owed: number;
  cycles: number;
}

/**
 * A fleet of Artemis live nodes as the notifier sees them over AMQP 1.0: one listener per cluster,
 * each a node's `activemq.notifications`, multicast to every subscriber as the broker does, with
 * flow control (what a subscriber has no credit for waits for it). It sends the recorded broker's
 * consumer churn, copied per consumer: a steady rate shared by the clusters, and bursts on demand.
 * `caused` counts what was sent to the address, `dropped` what a subscriber's backlog could not hold.
 */
export class NotificationSimulator {
  /** Notifications made, per cluster: what each subscriber of that cluster is owed. */
  readonly caused: number[];
  dropped = 0;
  /** Subscriptions refused (not the notification address, or a ring the simulator does not keep). */
  refused = 0;
  perSecond: number;
  private readonly random: () => number;
  private readonly totalQueues: number;
  private pace?: NodeJS.Timeout;
  private pacedAt = Date.now();

  private constructor(
    private readonly recording: NotificationRecording,
    options: NotificationSimulatorOptions,
    private readonly clusters: SimCluster[],
  ) {
    this.perSecond = options.perSecond;
    this.random = seeded(options.seed ?? 33);
    this.caused = options.clusters.map(() => 0);
    this.totalQueues = options.clusters.reduce((sum, c) => sum + c.queues, 0);
  }

  static async start(
    options: NotificationSimulatorOptions,
    recording = notificationRecording(),
  ): Promise<NotificationSimulator> {
    const clusters: SimCluster[] = [];
    const sim = new NotificationSimulator(recording, options, clusters);
    for (const [c, { queues }] of options.clusters.entries()) {
      const container = create_container({ id: `sim-${c}` });
      // The notifier signs in with the cluster's credential (PLAIN); any is taken.
      container.sasl_server_mechanisms.enable_plain(() => true);
      container.sasl_server_mechanisms.enable_anonymous();
      const cluster: SimCluster = {
        queues,
        subscribers: new Set(),
        owed: 0,
        cycles: 0,
        server: undefined!,
        sockets: new Set(),
      };
      container.on('sender_open', (ctx: EventContext) => sim.attach(cluster, ctx.sender!));
      // Errors of one connection (a subscriber killed) are that connection's: the node serves on.
      container.on('error', () => undefined);
      container.on('disconnected', () => undefined);
      const server = container.listen({ port: 0, host: '127.0.0.1' });
      await new Promise<void>((resolve, reject) => {
        server.once('listening', resolve);
        server.once('error', reject);
      });
      cluster.server = server;
      server.on('connection', (socket: Socket) => {
        cluster.sockets.add(socket);
        socket.on('close', () => cluster.sockets.delete(socket));
      });
      clusters.push(cluster);
    }
    sim.pace = setInterval(() => sim.payOut(), PACE_MS);
    return sim;
  }

  /** The AMQP URL of cluster `c`'s node. */
  amqpUrl(c: number): string {
    return `amqp://127.0.0.1:${(this.clusters[c].server.address() as AddressInfo).port}`;
  }

  /** Subscribers attached now, per cluster. */
  subscribers(): number[] {
    return this.clusters.map((c) => c.subscribers.size);
  }

  /** Notifications waiting for a subscriber's credit, in all. */
  backlog(): number {
    let waiting = 0;
    for (const cluster of this.clusters)
      for (const s of cluster.subscribers) waiting += s.backlog.length - s.head;
    return waiting;
  }

  /** At least `notifications` more on cluster `c` at once, in whole consumer cycles: a burst. */
  burst(c: number, notifications: number): void {
    const cycles = Math.ceil(notifications / this.recording.cycle.length);
    for (let i = 0; i < cycles; i++) this.cycle(c);
  }

  async stop(): Promise<void> {
    clearInterval(this.pace);
    await Promise.all(
      this.clusters.map(async (cluster) => {
        for (const s of cluster.subscribers) s.sender.connection.close();
        const closed = new Promise<void>((resolve) => cluster.server.close(() => resolve()));
        // A peer that never answers the close (a process stopped) would hold server.close for ever.
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
        for (const socket of cluster.sockets) socket.destroy();
        await closed;
      }),
    );
  }

  private attach(cluster: SimCluster, sender: Sender): void {
    const address = (sender.source as { address?: string } | undefined)?.address;
    if (address !== NOTIFICATION_ADDRESS) {
      // A ring (`activemq.notifications::queue`) or another address: this node has none.
      this.refused++;
      sender.close({ condition: 'amqp:not-found', description: `${String(address)} does not exist` });
      return;
    }
    sender.set_source({ address });
    const subscriber: Subscriber = {
      sender,
      backlog: [],
      head: 0,
      handed: flowOf(sender).delivery_count,
    };
    cluster.subscribers.add(subscriber);
    sender.on('sendable', () => this.flush(subscriber));
    const gone = () => cluster.subscribers.delete(subscriber);
    sender.on('sender_close', gone);
    sender.on('sender_error', gone);
    sender.connection.on('disconnected', gone);
    sender.connection.on('connection_close', gone);
  }

  /** The steady rate since the last payout, shared by the clusters as their queues are. */
  private payOut(): void {
    const now = Date.now();
    const due = (this.perSecond * (now - this.pacedAt)) / 1000;
    this.pacedAt = now;
    const perCycle = this.recording.cycle.length;
    for (const [c, cluster] of this.clusters.entries()) {
      cluster.owed += (due * cluster.queues) / this.totalQueues;
      while (cluster.owed >= perCycle) {
        cluster.owed -= perCycle;
        this.cycle(c);
      }
    }
  }

  /** One consumer of a random queue of cluster `c` made and closed in its own session. */
  private cycle(c: number): void {
    const cluster = this.clusters[c];
    const n = cluster.cycles++;
    const q = Math.floor(this.random() * cluster.queues);
    const hex = (x: number, width: number) => x.toString(16).padStart(width, '0');
    const names = this.recording.names;
    // Every cycle its own session and client, so no two notifications of a node are the same.
    const replacements: [string, string][] = [
      [names.queue, `sim.c${c}.q${q}`],
      [names.session, `${hex(n, 8)}-0000-4000-8000-${hex(c, 12)}`],
      [names.clientId, `${hex(n, 8)}-0001-4000-8000-${hex(c, 12)}`],
      [names.remoteAddress, `127.0.0.1:${10_000 + (n % 50_000)}`],
      [names.connection, hex(n, 8)],
    ];
    const now = Date.now();
    for (const recorded of this.recording.cycle) {
      const properties: Record<string, Typed | PropertyValue> = {};
      for (const [key, value] of Object.entries(recorded.application_properties))
        properties[key] =
          key === '_AMQ_NotifTimestamp' ? types.wrap_long(now) : typed(replaced(value, replacements));
      const outgoing: Outgoing = message.encode({
        ...recorded,
        creation_time: new Date(now),
        application_properties: properties,
        body: NO_BODY,
      } as never);
      this.caused[c]++;
      for (const subscriber of cluster.subscribers) {
        if (subscriber.backlog.length - subscriber.head >= MAX_BACKLOG) {
          this.dropped++;
          continue;
        }
        subscriber.backlog.push(outgoing);
        this.flush(subscriber);
      }
    }
  }

  private flush(subscriber: Subscriber): void {
    const { sender, backlog } = subscriber;
    let room = flowOf(sender).credit - unwritten(subscriber);
    while (room-- > 0 && subscriber.head < backlog.length && sender.sendable()) {
      sender.send(backlog[subscriber.head++], undefined, MESSAGE_FORMAT);
      subscriber.handed++;
    }
    // Sent ones are let go of in one cut once they are half of it, not one shift per message.
    if (subscriber.head > 1024 && subscriber.head * 2 > backlog.length) {
      backlog.splice(0, subscriber.head);
      subscriber.head = 0;
    }
  }
}
