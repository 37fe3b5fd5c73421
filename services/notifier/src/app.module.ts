import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { NOTIFIER_CONFIG, loadNotifierConfig } from './notifier.config';
import { NotifierOwnershipService } from './ownership/notifier-ownership.service';

/** One AMQP 1.0 notification subscription per live node, BrokerEvents to JetStream, coalesced signals, capability verdicts. */
@Module({
  imports: [PlatformModule.forService({ service: 'notifier', defaultPort: 8082 })],
  providers: [
    { provide: NOTIFIER_CONFIG, useFactory: () => loadNotifierConfig(process.env) },
    NotifierOwnershipService,
  ],
})
export class NotifierModule {}
