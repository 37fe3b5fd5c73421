import { Module } from '@nestjs/common';
import { OwnerModule } from '../owner/owner.module';
import { LiveListsController } from './live-lists.controller';

/** Live consumers, sessions and connections, through the scraper that owns the cluster. */
@Module({
  imports: [OwnerModule],
  controllers: [LiveListsController],
})
export class LiveListsModule {}
