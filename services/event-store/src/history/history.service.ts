import { Bus, RpcError, type Unsubscribe } from '@artemis-studio/bus';
import { rpcs } from '@artemis-studio/contracts';
import type { Reaped } from '@artemis-studio/db';
import { BUS, DatabaseUnavailableError, InstallationGuard, SettingsService } from '@artemis-studio/platform';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { BrokerEventRepository } from './broker-event.repository';

/** Replay, history, drop counting and on-demand reaping over request/reply: every replica serves them. */
@Injectable()
export class HistoryService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly served: Unsubscribe[] = [];
  private stopped = false;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly queries: BrokerEventRepository,
    private readonly settings: SettingsService,
    private readonly installation: InstallationGuard,
  ) {}

  onApplicationBootstrap(): void {
    // Served once this is the only installation on its NATS: a second one's event store must not
    // answer the first one's gateways from its own database.
    void this.installation.whenAlone().then(() => this.serve());
  }

  private serve(): void {
    if (this.stopped) return;
    this.served.push(
      // Every event of a replay or a history page is built field by field from its row (`toEvent`),
      // and the gateway checks each on receipt: a second check here was a sixth of a replay's CPU.
      this.bus.serve(
        rpcs.eventsSince,
        (r) => unavailableAs503(this.queries.since(r.clusterId, r.afterSeq, r.limit, r.newest)),
        { checkReply: false },
      ),
      this.bus.serve(rpcs.newestSeq, async (r) => ({
        seq: await unavailableAs503(this.queries.newestSeq(r.clusterId)),
      })),
      this.bus.serve(
        rpcs.eventsHistory,
        (r) => unavailableAs503(this.queries.history(r.clusterId, r.query)),
        {
          checkReply: false,
        },
      ),
      this.bus.serve(rpcs.recordDrops, async (report) => ({
        dropped: await unavailableAs503(this.queries.recordDrops(report)),
      })),
      this.bus.serve(rpcs.reapEvents, async () => {
        const { rows, partitions } = await unavailableAs503(this.reap());
        return { removed: rows, daysDropped: partitions };
      }),
    );
  }

  /** Removes the events older than the retention in force: days dropped whole, and rows deleted. */
  reap(): Promise<Reaped> {
    const hours = this.settings.get('artemis-studio.events.retention-hours');
    return this.queries.reap(new Date(Date.now() - hours * 3_600_000));
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const unsubscribe of this.served) unsubscribe();
  }
}

/** PostgreSQL away is a 503 to the caller (the gateway answers 503 in turn), not a failure. */
async function unavailableAs503<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (err) {
    if (err instanceof DatabaseUnavailableError) throw new RpcError(503, 'PostgreSQL is not available');
    throw err;
  }
}
