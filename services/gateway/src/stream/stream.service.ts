import { Bus } from '@artemis-studio/bus';
import { REPLAY_LIMIT_MAX, rpcs, type Topic } from '@artemis-studio/contracts';
import { BUS, SettingsService } from '@artemis-studio/platform';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Response } from 'express';
import { Authenticator } from '../access/authenticator';
import type { Credential } from '../access/principal';
import { SessionRepository } from '../access/session.repository';
import { ClusterRepository } from '../clusters/cluster.repository';
import { DomainError } from '../domain-error';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { CredentialWatch } from './credential-watch';
import { SseClient, type SendBounds } from './sse-client';
import type { Replay } from './feed-history';
import { SseHub } from './sse-hub';
import { StreamAdmission } from './stream-admission';
import { StreamMetrics } from './stream-metrics';

/** How soon a revoked session or token's streams end, on every replica. */
const CREDENTIAL_SWEEP_MS = 2000;
const SWEEPS_PER_TOUCH = 30;
/** What a refused stream is told: try again in a few seconds (the browser's EventSource backs off). */
const RETRY_AFTER_SECONDS = 5;
const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  // Proxies (nginx) would otherwise buffer the stream.
  'X-Accel-Buffering': 'no',
};

/** One stream to open, as the route validated it. */
export interface StreamRequest {
  clusterId: string;
  topics: ReadonlySet<Topic>;
  lastEventId: number | undefined;
  /** The client's address, for the per-address limit. */
  address: string;
  /** What the stream was authorised with; null when sign-in is off. */
  credential: Credential | null;
}

/** The HTTP exchange a stream lives on: its response, and being told when the client goes. */
export interface StreamConnection {
  response: Response;
  onClose(listener: () => void): void;
}

/** The SSE hub, its heartbeat, sweeps and limits, for the life of the gateway. */
@Injectable()
export class StreamService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly hub: SseHub;
  private readonly admission: StreamAdmission;
  /** Each stream's credential, re-checked every CREDENTIAL_SWEEP_MS. */
  private readonly credentials = new CredentialWatch();
  private readonly sendBounds: SendBounds;
  private timer?: NodeJS.Timeout;
  private lagTimer?: NodeJS.Timeout;
  private sweepTimer?: NodeJS.Timeout;
  private sweeps = 0;
  private stopResync?: () => void;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly settings: SettingsService,
    private readonly clusters: ClusterRepository,
    private readonly authenticator: Authenticator,
    private readonly sessions: SessionRepository,
    private readonly metrics: StreamMetrics,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.admission = new StreamAdmission(config.streamLimits);
    this.sendBounds = config.sendBounds;
    this.hub = new SseHub(
      bus,
      {
        since: (clusterId, afterSeq, from) => this.readReplay(clusterId, afterSeq, from),
        newestSeq: async (clusterId) => (await bus.request(rpcs.newestSeq, { clusterId })).seq,
      },
      metrics.hub,
    );
  }

  /**
   * Opens one client's stream: admitted under the limits (or refused, 503 with Retry-After),
   * watched for its credential, added to the hub, and released however it ends.
   */
  async open(request: StreamRequest, connection: StreamConnection): Promise<void> {
    const { response } = connection;
    this.admit(request.address);
    response.status(200).set(SSE_HEADERS);
    const client = new SseClient(
      request.clusterId,
      request.topics,
      response,
      request.lastEventId,
      this.sendBounds,
      {
        slow: (slow) => {
          this.metrics.slow.inc();
          this.hub.close(slow);
          response.destroy();
        },
        frame: () => this.metrics.frameWritten(),
      },
    );
    this.credentials.hold(client, request.credential, () => {
      this.hub.close(client);
      response.end();
    });
    connection.onClose(() => {
      this.hub.close(client);
      this.credentials.release(client);
      this.admission.release(request.address);
    });
    await this.hub.open(client);
    // Headers only once the hub's subscription for the cluster is confirmed: a client told 200
    // before it was could miss a signal published right after, and the console refetches on
    // open, not later (a fresh-clone CI run lost a queues signal so).
    if (response.destroyed || response.writableEnded) return;
    response.flushHeaders();
    response.write('retry: 1000\n\n');
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
    this.stopResync = this.bus.onReconnect(() => this.hub.resync());
  }

  /** Before the HTTP server closes: it would otherwise wait on every open stream. */
  onModuleDestroy(): void {
    clearTimeout(this.timer);
    clearInterval(this.lagTimer);
    clearInterval(this.sweepTimer);
    this.stopResync?.();
    this.hub.closeAll();
  }

  private admit(address: string): void {
    const admitted = this.admission.admit(address);
    if (admitted === 'ok') return;
    this.metrics.refused.inc({ limit: admitted });
    throw new DomainError(
      'unavailable',
      'TOO_MANY_STREAMS',
      admitted === 'total'
        ? 'this gateway holds as many streams as it may; another replica may have room'
        : 'too many streams from this address; close some, or raise SSE_MAX_STREAMS_PER_ADDRESS',
      undefined,
      RETRY_AFTER_SECONDS,
    );
  }

  /** A replay from the event store, at most the replay cap (a runtime setting). */
  private readReplay(clusterId: string, afterSeq: number, from: 'newest' | 'oldest'): Promise<Replay> {
    return this.bus.request(rpcs.eventsSince, {
      clusterId,
      afterSeq,
      limit: Math.min(this.settings.get('artemis-studio.stream.replay-cap'), REPLAY_LIMIT_MAX) || 1,
      newest: from === 'newest',
    });
  }

  /**
   * Ends the streams whose credential is no longer good, within CREDENTIAL_SWEEP_MS of a sign-out
   * or revocation on any replica; once a minute, marks their sessions as in use. With PostgreSQL
   * away the streams stay (nothing can be checked) and the next sweep tries again.
   */
  private async sweepCredentials(): Promise<void> {
    try {
      if (++this.sweeps % SWEEPS_PER_TOUCH === 0) await this.sessions.touch(this.credentials.sessions());
      this.metrics.credentialEnds.inc(
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
}
