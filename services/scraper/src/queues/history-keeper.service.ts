import { Inject, Injectable, Logger } from '@nestjs/common';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import { Interval } from '@nestjs/schedule';
import { SCRAPER_CONFIG, type ScraperConfig } from '../scraper.config';
import { NodeStateRepository } from '../topology/node-state.repository';
import { QueueSnapshotRepository } from './queue-snapshot.repository';

/**
 * Trims `metric_sample` (with `queue_tick`), `node_sample`, `address_sample` and each resolution of
 * `node_rollup` past their retention, hourly, in bounded batches.
 */
@Injectable()
export class SampleReaperService {
  private readonly logger = new Logger('SampleReaper');

  constructor(
    private readonly queues: QueueSnapshotRepository,
    private readonly nodes: NodeStateRepository,
    private readonly addresses: AddressSampleRepository,
    @Inject(SCRAPER_CONFIG) private readonly config: ScraperConfig,
  ) {}

  @Interval(3_600_000)
  async reap(): Promise<number> {
    const cutOff = new Date(Date.now() - this.config.sampleRetentionHours * 3_600_000);
    const queues = await this.queues.reapSamples(cutOff);
    const nodes = await this.nodes.reapSamples(cutOff);
    const addresses = await this.addresses.reapSamples(cutOff);
    let rollups = 0;
    for (const [resolution, days] of this.config.rollupRetentionDays)
      rollups += await this.queues.reapRollups(resolution, new Date(Date.now() - days * 86_400_000));
    if (queues || nodes || addresses || rollups)
      this.logger.log(
        `reaped ${queues} queue, ${nodes} node and ${addresses} address samples, and ${rollups} node rollups`,
      );
    return queues + nodes + addresses + rollups;
  }
}
