import { Bus } from '@artemis-studio/bus';
import { BUS } from '@artemis-studio/platform';
import { Logger, Module } from '@nestjs/common';
import { MetricsModule } from '../metrics/metrics.module';
import { NotifierMetrics } from '../metrics/notifier-metrics';
import { NOTIFIER_CONFIG, type NotifierConfig } from '../notifier.config';
import { CreditGate } from './credit-gate';
import { EventPublisher } from './event-publisher';

/**
 * Broker events to the STUDIO_EVENTS stream, through a bounded buffer that holds the brokers'
 * credit when it fills and whose drops are reported.
 */
@Module({
  imports: [MetricsModule],
  providers: [
    {
      provide: CreditGate,
      useFactory: (config: NotifierConfig, metrics: NotifierMetrics) => {
        const log = new Logger('Publisher');
        return new CreditGate({
          capacity: config.bufferSize,
          holdLimitMs: config.holdLimitMs,
          onHold: () => {
            metrics.credit.held();
            log.warn('the stream is behind: the brokers hold the notifications until it catches up');
          },
          onRelease: (heldMs, overLimit) => {
            metrics.credit.released(heldMs, overLimit);
            if (overLimit)
              log.warn(
                `the brokers held the notifications for ${Math.round(heldMs / 1000)} s, the limit ` +
                  '(NOTIFIER_HOLD_LIMIT_SECONDS): taking them again, and dropping (counted) what the buffer cannot hold',
              );
            else log.log(`the stream caught up: the brokers held the notifications for ${heldMs} ms`);
          },
        });
      },
      inject: [NOTIFIER_CONFIG, NotifierMetrics],
    },
    {
      provide: EventPublisher,
      useFactory: (bus: Bus, config: NotifierConfig, metrics: NotifierMetrics, gate: CreditGate) =>
        new EventPublisher(bus, () => config.bufferSize, metrics.publisher, new Logger('Publisher'), gate),
      inject: [BUS, NOTIFIER_CONFIG, NotifierMetrics, CreditGate],
    },
  ],
  exports: [EventPublisher, CreditGate],
})
export class PublishingModule {}
