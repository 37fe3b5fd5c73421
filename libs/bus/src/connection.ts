import { Backoff, sleep, withTimeout } from '@artemis-studio/timing';
import { DebugEvents, Events, connect, credsAuthenticator, type NatsConnection } from 'nats';
import { RpcError, type BusState } from './bus';
import type { BusLog } from './reporter';

/** A user and password of the client's account, or the content of a decentralised `.creds` file. */
export type NatsAuth = { user: string; pass: string } | { creds: Uint8Array };

const authOptions = (auth: NatsAuth | undefined) =>
  !auth
    ? {}
    : 'creds' in auth
      ? { authenticator: credsAuthenticator(auth.creds) }
      : { user: auth.user, pass: auth.pass };

/** The longest `close` waits for a drain before it closes the connection outright. */
const DRAIN_TIMEOUT_MS = 5000;

/**
 * The connection to NATS. Dials in the background until the first connection is up, then lets the
 * client reconnect by itself, forever: a service boots and reports "not ready" while NATS is away
 * instead of crashing, and `state` feeds readiness.
 */
export class BusConnection {
  private connection?: NatsConnection;
  /** Resolves with the first connection; rejects only when closed before it. */
  readonly connected: Promise<NatsConnection>;
  private currentState: BusState = 'connecting';
  private closeRequested = false;
  private readonly reconnectListeners = new Set<() => void>();

  constructor(
    private readonly options: { servers: string | string[]; name: string; auth?: NatsAuth },
    private readonly log: BusLog,
  ) {
    this.connected = this.connectUntilClosed();
    // Rejects only when closed before the first connect, when nobody may be awaiting it yet.
    this.connected.catch(() => (this.currentState = 'closed'));
  }

  get state(): BusState {
    return this.currentState;
  }

  /** The connection now, if any (publishing never waits for one). */
  get current(): NatsConnection | undefined {
    return this.connection;
  }

  /** The connection, waiting at most `timeoutMs` for the first: a request while NATS is away is a 503. */
  within(timeoutMs: number): Promise<NatsConnection> {
    if (this.connection) return Promise.resolve(this.connection);
    return withTimeout(this.connected, timeoutMs, () => {
      throw new RpcError(503, 'the bus is not connected to NATS');
    });
  }

  /** Called each time the connection comes back after it was lost. */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.closeRequested = true;
    this.currentState = 'closed';
    const nc = this.connection;
    if (!nc || nc.isClosed()) return;
    // Drain delivers what is in flight, but it waits on every subscription, a pull consumer's
    // included; bounded, so a service's shutdown always ends.
    const drained = await withTimeout(
      nc.drain().then(
        () => true,
        () => false,
      ),
      DRAIN_TIMEOUT_MS,
      () => false,
    );
    // nats.js's drain swallows a failed flush (NATS away) and resolves without closing: the client
    // then dialled for ever, and a service stopped during an outage never exited.
    if (!drained || !nc.isClosed()) await nc.close();
  }

  /**
   * Not the client's waitOnFirstConnect: that loop cannot be cancelled, so a service closed while
   * NATS is away would never exit.
   */
  private async connectUntilClosed(): Promise<NatsConnection> {
    const backoff = new Backoff({ minMs: 250, maxMs: 5000 });
    for (let attempt = 0; ; attempt++) {
      if (this.closeRequested) throw new Error('bus closed before it first connected');
      try {
        const nc = await connect({
          servers: serverList(this.options.servers),
          name: this.options.name,
          ...authOptions(this.options.auth),
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
          reconnectJitter: 500,
          pingInterval: 10_000,
          maxPingOut: 2,
          timeout: 2000,
          // Without it every request (an RPC, a KV read) makes two errors with their stack traces
          // in advance, for a timeout that almost never comes. When JetStream publishes were
          // requests too, 7% of the notifier's CPU profile at 1,000 events/s went to those errors.
          noAsyncTraces: true,
        });
        if (this.closeRequested) {
          await nc.close();
          throw new Error('bus closed before it first connected');
        }
        this.connection = nc;
        this.currentState = 'connected';
        void this.followStatus(nc);
        return nc;
      } catch (err) {
        if (this.closeRequested) throw err;
        if (attempt % 10 === 0)
          this.log.warn(`bus: NATS not reachable (${(err as Error).message}); retrying`);
        await sleep(backoff.next());
      }
    }
  }

  /**
   * Follows the client's reconnects, and says them: core NATS keeps nothing for a subscriber that
   * is away, so what was published meanwhile (a signal, a stored event) never reaches this process.
   */
  private async followStatus(nc: NatsConnection): Promise<void> {
    void nc.closed().then(() => (this.currentState = 'closed'));
    let lostAt: number | null = null;
    for await (const status of nc.status()) {
      if (status.type === Events.Disconnect || status.type === DebugEvents.Reconnecting) {
        if (this.currentState === 'closed') continue;
        this.currentState = 'reconnecting';
        if (lostAt !== null) continue;
        lostAt = Date.now();
        this.log.warn(`bus: connection to NATS lost (${String(status.data)}); reconnecting`);
      } else if (status.type === Events.Reconnect) {
        this.currentState = 'connected';
        const awayMs = lostAt === null ? 0 : Date.now() - lostAt;
        lostAt = null;
        this.log.warn(
          `bus: reconnected to NATS after ${(awayMs / 1000).toFixed(1)} s; what was published meanwhile did not reach this process`,
        );
        // A listener that throws must not end this loop: the state would no longer follow NATS.
        for (const listener of [...this.reconnectListeners])
          try {
            listener();
          } catch (err) {
            this.log.warn(`bus: after the reconnect: ${(err as Error).message}`);
          }
      }
    }
  }
}

/**
 * The servers as nats.js takes them: NATS_URL lists a cluster's nodes comma-separated, and the
 * client reads a string as one address (it dialled "a:4222,b:4222" as a single host).
 */
export function serverList(servers: string | string[]): string[] {
  return (Array.isArray(servers) ? servers : servers.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
