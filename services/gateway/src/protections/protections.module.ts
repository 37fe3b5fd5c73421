import { Module } from '@nestjs/common';
import { ProtectionGate } from './protection-gate';
import { ProtectionsController } from './protections.controller';
import { ProtectionsRepository } from './protections.repository';

/** Protected queues and addresses (issue 62, item 2): the patterns, and the gate the actions pass. */
@Module({
  controllers: [ProtectionsController],
  providers: [ProtectionsRepository, ProtectionGate],
  exports: [ProtectionGate],
})
export class ProtectionsModule {}
