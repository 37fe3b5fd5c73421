import { Bus } from '@artemis-studio/bus';
import { REPLAY_LIMIT_MAX, rpcs } from '@artemis-studio/contracts';
import { BUS, SettingsService } from '@artemis-studio/platform';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { Authenticator } from '../access/authenticator';
import { SessionRepository } from '../access/session.repository';
import { ClusterRepository } from '../clusters/cluster.repository';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { CredentialWatch } from './credential-watch';
import { SseHub } from './sse-hub';
import { StreamAdmission } from './stream-admission';

/** How soon a revoked session or token's streams end, on every replica. */
const CREDENTIAL_SWEEP_MS = 2000;
const SWEEPS_PER_TOUCH = 30;

/** The hub, its heartbeat and its metrics, for the life of the gateway. */
@Injectable()
export class StreamService implements OnApplicationBootstrap, OnModuleDestroy {
  readonly hub: SseHub;
  /** SSE frames written so far (exported as studio_gateway_stream_frames_total). */
  framesWritten = 0;
  readonly slow: Counter;
  /** Streams refused by a limit (studio_gateway_stream_refused_total{limit}). */
  readonly refused: Counter<'limit'>;
  readonly admission: StreamAdmission;
  /** Each stream's credential, re-checked every CREDENTIAL_SWEEP_MS. */
  readonly credentials = new CredentialWatch();
  private readonly ended: Counter;
  private timer?: NodeJS.Timeout;
  private lagTimer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private sweeps = 0;

  constructor(
    @Inject(BUS) bus: Bus,
    private readonly settings: SettingsService,
    private readonly clusters: ClusterRepository,
    private readonly authenticator: Authenticator,
    private readonly sessions: SessionRepository,
    metrics: Registry,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.admission = new StreamAdmission(config.streamLimits);
    this.ended = new Counter({
      name: 'studio_gateway_stream_credential_ends_total',
      help: 'Streams ended because the session or token that opened them was revoked, expired or disabled',
      registers: [metrics],
    });
    this.refused = new Counter({
      name: 'studio_gateway_stream_refused_total',
      help: 'Streams refused because this replica, or the client address, holds as many as it may',
      labelNames: ['limit'],
      registers: [metrics],
    });
    const clients = new Gauge({
      name: 'studio_gateway_stream_clients',
      help: 'Connected SSE clients',
      registers: [metrics],
    });
    let counted = 0;
    const written = () => this.framesWritten;
    new Counter({
      name: 'studio_gateway_stream_frames_total',
      help: 'SSE frames written',
      registers: [metrics],
      // Counted in a plain number and added at scrape time: a signal to 10,000 clients is 10,000
      // frames, and a labelled increment per frame showed in the fan-out's latency.
      collect() {
        const now = written();
        this.inc(now - counted);
        counted = now;
      },
    });
    this.slow = new Counter({
      name: 'studio_gateway_stream_slow_disconnects_total',
      help: 'Clients cut off because they fell behind their send bound',
      registers: [metrics],
    });
    const replayed = new Histogram({
      name: 'studio_gateway_stream_replay_size',
      help: 'Events replayed after a Last-Event-ID',
      buckets: [0, 1, 10, 50, 100, 250, 500],
      registers: [metrics],
    });
    const replayFailed = new Counter({
      name: 'studio_gateway_stream_replay_failures_total',
      help: 'Replays that could not be read (the client went live without them)',
      registers: [metrics],
    });
    const repaired = new Counter({
      name: 'studio_gateway_stream_repaired_events_total',
      help: 'Stored events a cluster feed missed on the bus (event store restarted, NATS restarted) and read from the store',
      registers: [metrics],
    });
    const repairFailed = new Counter({
      name: 'studio_gateway_stream_repair_failures_total',
      help: 'Holes in a cluster feed that could not be read back: its clients were told of a gap',
      registers: [metrics],
    });
    this.hub = new SseHub(
      bus,
      (clusterId, afterSeq, from) =>
        bus.request(rpcs.eventsSince, {
          clusterId,
          afterSeq,
          limit: Math.min(settings.get('artemis-studio.stream.replay-cap'), REPLAY_LIMIT_MAX) || 1,
          newest: from === 'newest',
        }),
      {
        clients: (n) => clients.set(n),
        replayed: (n) => replayed.observe(n),
        replayFailed: () => replayFailed.inc(),
        repaired: (n) => repaired.inc(n),
        repairFailed: () => repairFailed.inc(),
      },
    );
  }

  onApplicationBootstrap(): void {
    const beat = () => {
      this.hub.ping();
      void this.endRemovedClusters();
      this.timer = setTimeout(beat, this.settings.get('artemis-studio.stream.heartbeat-millis'));
    };
    this.timer = setTimeout(beat, this.settings.get('artemis-studio.stream.heartbeat-millis'));
    this.lagTimer = setInterval(() => this.hub.checkLag(), 1000);
    this.sweepTimer = setInterval(() => void this.sweepCredentials(), CREDENTIAL_SWEEP_MS);
  }

  /**
   * Ends the streams whose credential is no longer good, within CREDENTIAL_SWEEP_MS of a sign-out
   * or revocation on any replica; once a minute, marks their sessions as in use. With PostgreSQL
   * away the streams stay (nothing can be checked) and the next sweep tries again.
   */
  private async sweepCredentials(): Promise<void> {
    try {
      if (++this.sweeps % SWEEPS_PER_TOUCH === 0) await this.sessions.touch(this.credentials.sessions());
      this.ended.inc(
        await this.credentials.sweep((sessions, tokens) => this.authenticator.noLongerGood(sessions, tokens)),
      );
    } catch {
      // Checked again at the next sweep.
    }
  }

  /**
   * Ends the streams of clusters no longer registered. The removing replica announces a removal on
   * the bus at once; this catches a replica that missed it (core NATS is at most once), so no
   * stream of a removed cluster outlives a heartbeat. With PostgreSQL away it waits for the next.
   */
  private async endRemovedClusters(): Promise<void> {
    const open = this.hub.subscribedClusters();
    if (open.length === 0) return;
    try {
      const registered = await this.clusters.registered(open);
      for (const clusterId of open) if (!registered.has(clusterId)) this.hub.clusterRemoved(clusterId);
    } catch {
      // Checked again at the next heartbeat.
    }
  }

  /** Before the HTTP server closes: it would otherwise wait on every open stream. */
  onModuleDestroy(): void {
    clearTimeout(this.timer);
    clearInterval(this.lagTimer);
    clearInterval(this.sweepTimer);
    this.hub.closeAll();
  }
}
