import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { BrokerEventRepository } from '../history/broker-event.repository';
import { HistoryService } from '../history/history.service';
import { EventStoreWriterService } from '../writer/event-store-writer.service';

const HOUR_MS = 3_600_000;

/**
 * Keeps `broker_event`, hourly (ADR-0025): every replica makes the days' partitions ahead of the
 * clock (under a lock, so each is made once), and the writer replica removes what is past
 * `artemis-studio.events.retention-hours`.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Retention');

  constructor(
    private readonly writer: EventStoreWriterService,
    private readonly queries: HistoryService,
    private readonly events: BrokerEventRepository,
  ) {}

  /** At start, not an hour later: the days ahead may have run out while no event store ran. */
  onApplicationBootstrap(): void {
    void this.makeDaysAhead();
  }

  @Interval(HOUR_MS)
  async keepHourly(): Promise<void> {
    await this.makeDaysAhead();
    if (!this.writer.isWriter) return;
    try {
      const { rows, partitions } = await this.queries.reap();
      if (rows || partitions)
        this.logger.log(
          `reaped ${partitions} days of events whole and deleted ${rows} events past retention`,
        );
    } catch (err) {
      this.logger.warn(`reaping failed: ${(err as Error).message}`);
    }
  }

  private async makeDaysAhead(): Promise<void> {
    try {
      const made = await this.events.makeDaysAhead();
      if (made) this.logger.log(`made ${made} days' partitions of the broker events`);
    } catch (err) {
      // A lock not had in time (a long read of the default partition): the next run's, a day ahead.
      this.logger.warn(`could not make the days ahead: ${(err as Error).message}`);
    }
  }
}
