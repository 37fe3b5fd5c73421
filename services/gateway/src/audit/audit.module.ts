import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ACCESS_REFUSALS } from '../access/access-refusals';
import { AuditController } from './audit.controller';
import { AuditInterceptor } from './audit.interceptor';
import { AuditRepository } from './audit.repository';
import { AuditTrail } from './audit-trail';

/**
 * The audit trail of every change (docs/security.md): one row per mutating request, written with
 * the change it records, and every change the access guard refused. Global, because every
 * feature's routes are audited and the access guard reports its refusals here
 * (ACCESS_REFUSALS) without access depending on audit.
 */
@Global()
@Module({
  controllers: [AuditController],
  providers: [
    AuditRepository,
    AuditTrail,
    { provide: ACCESS_REFUSALS, useExisting: AuditTrail },
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [AuditTrail, AuditRepository, ACCESS_REFUSALS],
})
export class AuditModule {}
