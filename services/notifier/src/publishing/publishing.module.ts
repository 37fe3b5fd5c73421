import { Bus } from '@artemis-studio/bus';
import { BUS } from '@artemis-studio/platform';
import { Logger, Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { NOTIFIER_CONFIG, type NotifierConfig } from '../notifier.config';
import { EventPublisher } from './event-publisher';

/** Broker events to the STUDIO_EVENTS stream, through a bounded buffer whose drops are reported. */
@Module({
  imports: [MetricsModule],
  providers: [
    {
      provide: EventPublisher,
      useFactory: (bus: Bus, config: NotifierConfig, metrics: NotifierMetrics) =>
        new EventPublisher(bus, () => config.bufferSize, metrics.publisher, new Logger('Publisher')),
      inject: [BUS, NOTIFIER_CONFIG, NotifierMetrics],
    },
  ],
  exports: [EventPublisher],
})
export class PublishingModule {}
