import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { DirectoryService } from './directory.service';
import { GrantsController } from './grants.controller';
import { TokensController } from './tokens.controller';
import { UsersController } from './users.controller';

/** Users, service accounts, grants and API tokens, managed through the API (docs/security.md). */
@Module({
  imports: [AccessModule],
  controllers: [UsersController, GrantsController, TokensController],
  providers: [DirectoryService],
  exports: [DirectoryService],
})
export class DirectoryModule {}
