import { Inject, Injectable, Logger } from '@nestjs/common';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import { Interval } from '@nestjs/schedule';
import { SCRAPER_CONFIG, type ScraperConfig } from '../scraper.config';
import { NodeStateRepository } from '../topology/node-state.repository';
import { QueueSnapshotRepository } from './queue-snapshot.repository';

/** Trims `metric_sample`, `node_sample` and `address_sample` past their retention, hourly, in bounded batches. */
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
    if (queues || nodes || addresses)
      this.logger.log(`reaped ${queues} queue, ${nodes} node and ${addresses} address samples`);
    return queues + nodes + addresses;
  }
}
