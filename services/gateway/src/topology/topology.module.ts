import { Module } from '@nestjs/common';
import { TopologyController } from './topology.controller';
import { TopologyQueries } from './topology.queries';

/** A cluster's topology and health, read from what the scraper persisted. */
@Module({
  controllers: [TopologyController],
  providers: [TopologyQueries],
})
export class TopologyModule {}
