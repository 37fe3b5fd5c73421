import { Module } from '@nestjs/common';
import { AddressMetricQueries } from './address-metric.queries';
import { MetricQueries } from './metric-queries';
import { QueueGrowthQueries } from './queue-growth.queries';
import { QueueBaselineQueries } from './queue-baseline.queries';
import { MetricsController } from './metrics.controller';

/** Charts: a cluster's and a queue's figures over time, a queue's usual band, and the queues growing fastest. */
@Module({
  controllers: [MetricsController],
  providers: [MetricQueries, AddressMetricQueries, QueueGrowthQueries, QueueBaselineQueries],
})
export class MetricsModule {}
