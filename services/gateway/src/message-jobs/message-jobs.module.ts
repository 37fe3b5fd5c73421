import { Module } from '@nestjs/common';
import { BrokerActionsModule } from '../broker-actions/broker-actions.module';
import { OwnerModule } from '../owner/owner.module';
import { QueueMessagesModule } from '../queue-messages/queue-messages.module';
import { DeadLettersController } from './dead-letters.controller';
import { MessageJobRequests } from './message-job-requests';
import { MessageJobsController } from './message-jobs.controller';

/** Moves, copies, retries and deletes of a queue's messages, run by the cluster's owner (ADR-0012). */
@Module({
  imports: [OwnerModule, BrokerActionsModule, QueueMessagesModule],
  controllers: [MessageJobsController, DeadLettersController],
  providers: [MessageJobRequests],
})
export class MessageJobsModule {}
