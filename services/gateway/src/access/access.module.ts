import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ClustersModule } from '../clusters/clusters.module';
import { AccessGuard } from './access.guard';
import { Authenticator } from './authenticator';
import { FirstAdmin } from './first-admin';
import { FirstAdminRepository } from './first-admin.repository';
import { GrantRepository } from './grant.repository';
import { SessionRepository } from './session.repository';
import { TokenRepository } from './token.repository';
import { UserRepository } from './user.repository';

/**
 * Who may see and do what (docs/security.md): who a request is (a session or an API token), and a
 * global guard that enforces the role each route declares. The users, grants, sessions and
 * tokens it reads are each in a repository of their own; managing them is directory/, signing in
 * is sign-in/, and the record of every change is audit/.
 */
@Module({
  imports: [ClustersModule],
  providers: [
    UserRepository,
    GrantRepository,
    SessionRepository,
    TokenRepository,
    Authenticator,
    FirstAdmin,
    FirstAdminRepository,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [UserRepository, GrantRepository, SessionRepository, TokenRepository, Authenticator, FirstAdmin],
})
export class AccessModule {}
