import { PlatformModule } from '@artemis-studio/platform';
import { Global, Module } from '@nestjs/common';
import { NOTIFIER_CONFIG, loadNotifierConfig } from './notifier.config';
import { OwnershipModule } from './ownership/ownership.module';

/** The notifier's configuration, read once, for every feature. */
@Global()
@Module({
  providers: [{ provide: NOTIFIER_CONFIG, useFactory: () => loadNotifierConfig(process.env) }],
  exports: [NOTIFIER_CONFIG],
})
class NotifierConfigModule {}

/** One AMQP 1.0 notification subscription per live node, BrokerEvents to JetStream, coalesced signals, capability verdicts. */
@Module({
  imports: [
    PlatformModule.forService({ service: 'notifier', defaultPort: 8082 }),
    NotifierConfigModule,
    OwnershipModule,
  ],
})
export class NotifierModule {}
