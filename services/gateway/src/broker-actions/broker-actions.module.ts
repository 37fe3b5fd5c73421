import { ProtectionsModule } from '../protections/protections.module';
import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { OwnerModule } from '../owner/owner.module';
import { ActionRequestRepository } from './action-request.repository';
import { ActionRunner } from './action-runner';
import { BrokerChangesController } from './broker-changes.controller';
import { QueueActionsController } from './queue-actions.controller';
import { QueueImportController } from './queue-import.controller';
import { QueuePauseRepository } from './queue-pause.repository';

/** Idempotency keys are kept this long: a retry comes within seconds, a day is plenty. */
const KEY_RETENTION_HOURS = 24;
const REAP_EVERY_MS = 60 * 60_000;

/** Acting on a cluster's brokers (issue 28): queues, addresses and messages, through its owner. */
@Module({
  imports: [ClustersModule, OwnerModule, ProtectionsModule],
  controllers: [QueueActionsController, BrokerChangesController, QueueImportController],
  providers: [ActionRequestRepository, ActionRunner, QueuePauseRepository],
  exports: [ActionRunner, ProtectionsModule],
})
export class BrokerActionsModule implements OnModuleInit, OnModuleDestroy {
  private reaper?: NodeJS.Timeout;

  constructor(private readonly requests: ActionRequestRepository) {}

  /** Every replica reaps hourly; a second reap finds nothing. */
  onModuleInit(): void {
    this.reaper = setInterval(
      () => void this.requests.reap(KEY_RETENTION_HOURS).catch(() => undefined),
      REAP_EVERY_MS,
    );
    this.reaper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.reaper);
  }
}
