import { withTimeout } from '@artemis-studio/timing';
import { Bus, RpcError, type Unsubscribe } from '@artemis-studio/bus';
import { rpcs } from '@artemis-studio/contracts';
import { BUS, DatabaseService, SettingsService } from '@artemis-studio/platform';
import { Inject, Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { EventQueries } from './event-queries';

/** Replay, history, drop counting and on-demand reaping over request/reply: every replica serves them. */
@Injectable()
export class EventQueriesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly served: Unsubscribe[] = [];

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly database: DatabaseService,
    private readonly settings: SettingsService,
  ) {}

  onApplicationBootstrap(): void {
    const queries = async () => new EventQueries(await this.ready());
    this.served.push(
      this.bus.serve(rpcs.eventsSince, async (r) =>
        (await queries()).since(r.clusterId, r.afterSeq, r.limit, r.newest),
      ),
      this.bus.serve(rpcs.eventsHistory, async (r) => (await queries()).history(r.clusterId, r.query)),
      this.bus.serve(rpcs.recordDrops, async (report) => ({
        dropped: await (await queries()).recordDrops(report),
      })),
      this.bus.serve(rpcs.reapEvents, async () => ({ removed: await this.reap() })),
    );
  }

  /** Deletes events older than the retention in force. */
  async reap(): Promise<number> {
    const hours = this.settings.get('artemis-studio.events.retention-hours');
    return new EventQueries(await this.ready()).reap(new Date(Date.now() - hours * 3_600_000));
  }

  /** Queries wait a moment for PostgreSQL, then say it is down (the gateway answers 503). */
  private async ready() {
    return withTimeout(this.database.whenReady(), 2000, () => {
      throw new RpcError(503, 'PostgreSQL is not available');
    });
  }

  onApplicationShutdown(): void {
    for (const unsubscribe of this.served) unsubscribe();
  }
}
