import type { QueueBaselineResponse } from '@artemis-studio/contracts';
import { QueueHourQueries } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { MetricRange } from './metric-range';

/** A queue's usual band at each hour of a range, from the queues' hours (queue_hour, ADR-0039). */
@Injectable()
export class QueueBaselineQueries {
  constructor(private readonly database: DatabaseService) {}

  async bands(clusterId: string, queue: string, { from, to }: MetricRange): Promise<QueueBaselineResponse> {
    const hours = new QueueHourQueries(await this.database.forRequest());
    const { hours: bands, why } = await hours.bands(clusterId, queue, from.getTime(), to.getTime());
    return {
      from: from.toISOString(),
      to: to.toISOString(),
      hours: bands.map(({ at, ...band }) => ({ t: new Date(at).toISOString(), ...band })),
      why,
    };
  }
}
