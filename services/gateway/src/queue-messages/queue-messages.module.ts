import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { OwnerModule } from '../owner/owner.module';
import { QueueMessagesController } from './queue-messages.controller';

/** Browsing a queue's messages, through the cluster's owner. */
@Module({
  imports: [ClustersModule, OwnerModule],
  controllers: [QueueMessagesController],
})
export class QueueMessagesModule {}
