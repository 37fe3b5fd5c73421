import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { OwnerModule } from '../owner/owner.module';
import { QueueExportController } from './queue-export.controller';
import { QueueMessagesController } from './queue-messages.controller';

/** Browsing and exporting a queue's messages, through the cluster's owner. */
@Module({
  imports: [ClustersModule, OwnerModule],
  controllers: [QueueMessagesController, QueueExportController],
})
export class QueueMessagesModule {}
