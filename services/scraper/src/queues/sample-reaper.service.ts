import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { SCRAPER_CONFIG, type ScraperConfig } from '../scraper.config';
import { QueueSnapshotRepository } from './queue-snapshot.repository';

/** Trims `metric_sample` past its retention, hourly, in bounded batches. */
@Injectable()
export class SampleReaperService {
  private readonly logger = new Logger('SampleReaper');

  constructor(
    private readonly database: DatabaseService,
    @Inject(SCRAPER_CONFIG) private readonly config: ScraperConfig,
  ) {}

  @Interval(3_600_000)
  async reap(): Promise<number> {
    const repository = new QueueSnapshotRepository(await this.database.whenReady());
    const removed = await repository.reapSamples(
      new Date(Date.now() - this.config.sampleRetentionHours * 3_600_000),
    );
    if (removed) this.logger.log(`reaped ${removed} metric samples`);
    return removed;
  }
}
