import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { HubMetrics } from './feed-history';

/** Every metric the stream exports (on /metrics), made once and handed to what counts it. */
@Injectable()
export class StreamMetrics {
  /** What the hub counts: its clients, replays and repaired holes. */
  readonly hub: HubMetrics;
  /** Streams refused by a limit (studio_gateway_stream_refused_total{limit}). */
  readonly refused: Counter<'limit'>;
  readonly slow: Counter;
  readonly credentialEnds: Counter;
  /** SSE frames written so far: a plain number, added to the counter when it is scraped. */
  private framesWritten = 0;

  constructor(registry: Registry) {
    const registers = [registry];
    this.refused = new Counter({
      name: 'studio_gateway_stream_refused_total',
      help: 'Streams refused because this replica, or the client address, holds as many as it may',
      labelNames: ['limit'],
      registers,
    });
    this.slow = new Counter({
      name: 'studio_gateway_stream_slow_disconnects_total',
      help: 'Clients cut off because they fell behind their send bound',
      registers,
    });
    this.credentialEnds = new Counter({
      name: 'studio_gateway_stream_credential_ends_total',
      help: 'Streams ended because the session or token that opened them was revoked, expired or disabled',
      registers,
    });
    let counted = 0;
    const written = () => this.framesWritten;
    new Counter({
      name: 'studio_gateway_stream_frames_total',
      help: 'SSE frames written',
      registers,
      // Counted in a plain number and added at scrape time: a signal to 10,000 clients is 10,000
      // frames, and a labelled increment per frame showed in the fan-out's latency.
      collect() {
        const now = written();
        this.inc(now - counted);
        counted = now;
      },
    });
    const clients = new Gauge({
      name: 'studio_gateway_stream_clients',
      help: 'Connected SSE clients',
      registers,
    });
    const replayed = new Histogram({
      name: 'studio_gateway_stream_replay_size',
      help: 'Events replayed after a Last-Event-ID',
      buckets: [0, 1, 10, 50, 100, 250, 500],
      registers,
    });
    const replayFailed = new Counter({
      name: 'studio_gateway_stream_replay_failures_total',
      help: 'Replays that could not be read (the client went live without them)',
      registers,
    });
    const repaired = new Counter({
      name: 'studio_gateway_stream_repaired_events_total',
      help: 'Stored events a cluster feed missed on the bus (event store restarted, NATS restarted) and read from the store',
      registers,
    });
    const repairFailed = new Counter({
      name: 'studio_gateway_stream_repair_failures_total',
      help: 'Holes in a cluster feed that could not be read back: its clients were told of a gap',
      registers,
    });
    this.hub = {
      clients: (n) => clients.set(n),
      replayed: (n) => replayed.observe(n),
      replayFailed: () => replayFailed.inc(),
      repaired: (n) => repaired.inc(n),
      repairFailed: () => repairFailed.inc(),
    };
  }

  frameWritten(): void {
    this.framesWritten++;
  }
}
