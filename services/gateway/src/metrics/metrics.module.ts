import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { MetricQueries } from './metric-queries';
import { MetricsController } from './metrics.controller';

/** Charts: a cluster's and a queue's figures over time, and the queues growing fastest. */
@Module({
  imports: [ClustersModule],
  controllers: [MetricsController],
  providers: [MetricQueries],
})
export class MetricsModule {}
