import { Module } from '@nestjs/common';
import { ClusterRepository } from './cluster.repository';
import { ClustersController } from './clusters.controller';

/** Cluster registration; the repository is shared with the features that check a cluster exists. */
@Module({
  controllers: [ClustersController],
  providers: [ClusterRepository],
  exports: [ClusterRepository],
})
export class ClustersModule {}
