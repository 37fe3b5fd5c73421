import { PlatformModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';

/** One AMQP 1.0 notification subscription per live node, BrokerEvents to JetStream, coalesced signals (issue 4). */
@Module({
  imports: [PlatformModule.forService({ service: 'notifier', defaultPort: 8082 })],
})
export class NotifierModule {}
