import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { OwnerModule } from '../owner/owner.module';
import { QueueExportController } from './queue-export.controller';
import { QueueMessagesController } from './queue-messages.controller';
import { MessageBodyAccess } from './message-body-access';
import { UnmaskedWindowsController } from './unmasked-windows.controller';
import { UnmaskedWindowsRepository } from './unmasked-windows.repository';

/** Browsing and exporting a queue's messages, through the cluster's owner. */
@Module({
  imports: [ClustersModule, OwnerModule],
  controllers: [QueueMessagesController, QueueExportController, UnmaskedWindowsController],
  providers: [MessageBodyAccess, UnmaskedWindowsRepository],
  exports: [MessageBodyAccess],
})
export class QueueMessagesModule {}
