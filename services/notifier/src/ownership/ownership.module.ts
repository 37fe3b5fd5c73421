import { Module } from '@nestjs/common';
import { NotificationRouter } from '../events/notification-router';
import { MetricsModule } from '../metrics/metrics.module';
import { PublishingModule } from '../publishing/publishing.module';
import { SignalsModule } from '../signals/signals.module';
import { SubscriptionOwnershipService } from './subscription-ownership.service';

/** The clusters this replica owns, their subscriptions, and where their notifications go. */
@Module({
  imports: [MetricsModule, PublishingModule, SignalsModule],
  providers: [SubscriptionOwnershipService, NotificationRouter],
})
export class OwnershipModule {}
