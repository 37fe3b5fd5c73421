import { Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { HistoryService } from '../history/history.service';
import { EventStoreWriterService } from '../writer/event-store-writer.service';

/** Reaps `broker_event` past `artemis-studio.events.retention-hours`, hourly, on the writer replica. */
@Injectable()
export class RetentionService {
  private readonly logger = new Logger('Retention');

  constructor(
    private readonly writer: EventStoreWriterService,
    private readonly queries: HistoryService,
  ) {}

  @Interval(3_600_000)
  async reapHourly(): Promise<void> {
    if (!this.writer.isWriter) return;
    try {
      const removed = await this.queries.reap();
      if (removed) this.logger.log(`reaped ${removed} events past retention`);
    } catch (err) {
      this.logger.warn(`reaping failed: ${(err as Error).message}`);
    }
  }
}
