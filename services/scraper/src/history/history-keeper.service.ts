import {
  ensureHourlyPartitions,
  HOURLY_HISTORY,
  HOURLY_PARTITIONS_AHEAD_MS,
  HOUR_MS,
  hourOf,
  QueueHourQueries,
  SORT_AFTER_MS,
  sortClosedHours,
  type Reaped,
} from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import { SCRAPER_CONFIG, type ScraperConfig } from '../scraper.config';
import { NodeStateRepository } from '../topology/node-state.repository';
import { QueueSnapshotRepository } from '../queues/queue-snapshot.repository';

/**
 * Keeps the history the scraper writes, hourly: makes the hours' partitions of `metric_sample`,
 * `queue_tick`, `node_sample` and `address_sample` ahead of the clock (ADR-0021), removes what is
 * past its retention from them (whole hours dropped) and from each resolution of `node_rollup`,
 * and rewrites each hour that ended in series order, so that a chart reads few pages (ADR-0023).
 * It also sums up each ended hour per queue, what the baselines learn from (ADR-0039).
 */
@Injectable()
export class HistoryKeeperService implements OnApplicationBootstrap {
  private readonly logger = new Logger('HistoryKeeper');

  constructor(
    @Inject(DatabaseService) private readonly database: Pick<DatabaseService, 'whenReady'>,
    private readonly queues: QueueSnapshotRepository,
    private readonly nodes: NodeStateRepository,
    private readonly addresses: AddressSampleRepository,
    @Inject(SCRAPER_CONFIG) private readonly config: ScraperConfig,
  ) {}

  /** At start, not an hour later: the hours ahead may have run out while no scraper ran. */
  onApplicationBootstrap(): void {
    void this.makeHoursAhead().catch((e: Error) =>
      this.logger.warn(`could not make the hours ahead: ${e.message}`),
    );
  }

  @Interval(HOUR_MS)
  async keep(): Promise<void> {
    // A lock not had in time (a long read of the default partition) fails one run; the next retries.
    await this.makeHoursAhead().catch((e: Error) =>
      this.logger.warn(`could not make the hours ahead: ${e.message}`),
    );
    await this.reap().catch((e: Error) => this.logger.warn(`could not reap the history: ${e.message}`));
    await this.sortClosedHours().catch((e: Error) =>
      this.logger.warn(`could not sort the hours that ended: ${e.message}`),
    );
    await this.summarizeQueueHours().catch((e: Error) =>
      this.logger.warn(`could not sum up the queues' hours that ended: ${e.message}`),
    );
  }

  /**
   * Each hour that ended (SORT_AFTER_MS ago: a late tick still writes into it) and is still whole
   * in the samples, not summed up yet, summed up per queue; returns how many hours were.
   */
  async summarizeQueueHours(now = new Date()): Promise<number> {
    const hours = new QueueHourQueries(await this.database.whenReady());
    const from = Math.ceil(this.retentionCutOff(now).getTime() / HOUR_MS) * HOUR_MS;
    const to = hourOf(now.getTime() - SORT_AFTER_MS);
    let summed = 0;
    for (const hour of await hours.hoursLeft(from, to)) if ((await hours.summarize(hour)) !== null) summed++;
    if (summed) this.logger.log(`summed up ${summed} hours of the queues for their baselines`);
    return summed;
  }

  /**
   * The partitions of the hours from now to HOURLY_PARTITIONS_AHEAD_MS ahead; what was written
   * meanwhile into the default partition moves into its hour's. Returns how many were made.
   */
  async makeHoursAhead(now = new Date()): Promise<number> {
    const db = await this.database.whenReady();
    let made = 0;
    for (const history of Object.values(HOURLY_HISTORY))
      made += await ensureHourlyPartitions(
        db,
        history,
        now,
        new Date(now.getTime() + HOURLY_PARTITIONS_AHEAD_MS),
      );
    if (made) this.logger.log(`made ${made} hours' partitions of the history`);
    return made;
  }

  /** The hours that ended since the last run (and any a run missed), in series order; returns how many. */
  async sortClosedHours(now = new Date()): Promise<number> {
    const db = await this.database.whenReady();
    const keepFrom = this.retentionCutOff(now);
    let sorted = 0;
    for (const history of Object.values(HOURLY_HISTORY))
      sorted += await sortClosedHours(db, history, now, keepFrom);
    if (sorted) this.logger.log(`sorted ${sorted} hours' partitions of the history by series`);
    return sorted;
  }

  private retentionCutOff(now: Date): Date {
    return new Date(now.getTime() - this.config.sampleRetentionHours * HOUR_MS);
  }

  async reap(): Promise<Reaped> {
    const cutOff = this.retentionCutOff(new Date());
    const reaped = [
      await this.queues.reapSamples(cutOff),
      await this.nodes.reapSamples(cutOff),
      await this.addresses.reapSamples(cutOff),
    ];
    let rollups = 0;
    for (const [resolution, days] of this.config.rollupRetentionDays)
      rollups += await this.queues.reapRollups(resolution, new Date(Date.now() - days * 86_400_000));
    // The queues' hours are kept as the nodes' hours are.
    const hourDays = this.config.rollupRetentionDays.get(3600) ?? 32;
    rollups += await new QueueHourQueries(await this.database.whenReady()).reap(
      new Date(Date.now() - hourDays * 86_400_000),
    );
    const total = {
      rows: reaped.reduce((n, r) => n + r.rows, 0) + rollups,
      partitions: reaped.reduce((n, r) => n + r.partitions, 0),
    };
    if (total.rows || total.partitions)
      this.logger.log(
        `reaped ${total.partitions} hours' partitions of samples and ticks whole, and deleted ${reaped[0].rows} ` +
          `queue, ${reaped[1].rows} node and ${reaped[2].rows} address samples and ticks and ${rollups} node rollups and queue hours`,
      );
    return total;
  }
}
