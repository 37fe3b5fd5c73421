import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { MetricQueries } from './metric-queries';
import { StateController } from './state.controller';
import { StateQueries } from './state-queries';

/** A cluster's observed state, its history of figures, and its live lists and events by the bus. */
@Module({
  imports: [ClustersModule],
  controllers: [StateController],
  providers: [StateQueries, MetricQueries],
})
export class StateModule {}
