import { Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { AuditController } from '../audit/audit.controller';
import { AuditInterceptor } from '../audit/audit.interceptor';
import { AuditTrail } from '../audit/audit-trail';
import { ClustersModule } from '../clusters/clusters.module';
import { AccessGuard } from './access.guard';
import { AccessStore } from './access-store';
import { Authenticator } from './authenticator';
import { FirstAdmin } from './first-admin';
import { GrantsController, TokensController, UsersController } from './directory.controller';
import { OidcClient } from './oidc-client';
import { SignInController } from './sign-in.controller';
import { SignInLimiter } from './sign-in-limiter';

/**
 * Who may see and do what (docs/security.md): sign-in, sessions and API tokens, per-cluster roles
 * enforced by a global guard on every route, and the audit trail of every change.
 */
@Module({
  imports: [ClustersModule],
  controllers: [SignInController, UsersController, GrantsController, TokensController, AuditController],
  providers: [
    AccessStore,
    Authenticator,
    SignInLimiter,
    FirstAdmin,
    OidcClient,
    AuditTrail,
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
  ],
  exports: [AccessStore, AuditTrail],
})
export class AccessModule {}
