import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { DirectoryModule } from '../directory/directory.module';
import { OidcClient } from './oidc-client';
import { SignInController } from './sign-in.controller';
import { SignInLimiter } from './sign-in-limiter';

/** Signing in with a password or the identity provider, out, and who one is (docs/security.md). */
@Module({
  imports: [AccessModule, DirectoryModule],
  controllers: [SignInController],
  providers: [SignInLimiter, OidcClient],
})
export class SignInModule {}
