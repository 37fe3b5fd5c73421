import { SignalPublisher } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { JolokiaModule } from '../jolokia/jolokia.module';
import { ClusterLinksPart } from './cluster-links.part';
import { ClusterLinksRepository } from './cluster-links.repository';

/** The links between a cluster's live nodes, and the messages they leave stranded. */
@Module({
  imports: [JolokiaModule],
  providers: [ClusterLinksPart, ClusterLinksRepository, SignalPublisher],
  exports: [ClusterLinksPart],
})
export class ClusterLinksModule {}
