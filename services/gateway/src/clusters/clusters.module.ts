import { Module } from '@nestjs/common';
import { ClusterRegistry } from './cluster-registry';
import { ClustersController } from './clusters.controller';

/** Cluster registration; the registry is shared with the features that check a cluster exists. */
@Module({
  controllers: [ClustersController],
  providers: [ClusterRegistry],
  exports: [ClusterRegistry],
})
export class ClustersModule {}
