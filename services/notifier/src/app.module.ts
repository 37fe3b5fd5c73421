import { PlatformModule, serviceConfigModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { NOTIFIER_CONFIG, loadNotifierConfig } from './notifier.config';
import { OwnershipModule } from './ownership/ownership.module';

/** One AMQP 1.0 notification subscription per live node, BrokerEvents to JetStream, coalesced signals, capability verdicts. */
@Module({
  imports: [
    PlatformModule.forService({ service: 'notifier', defaultPort: 8082 }),
    serviceConfigModule(NOTIFIER_CONFIG, loadNotifierConfig),
    OwnershipModule,
  ],
})
export class NotifierModule {}
