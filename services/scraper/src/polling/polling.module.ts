import { SignalPublisher } from '@artemis-studio/platform';
import { type DynamicModule, type ModuleMetadata, Module, type Type } from '@nestjs/common';
import { HistoryModule } from '../history/history.module';
import { JolokiaModule } from '../jolokia/jolokia.module';
import { PollMetrics } from './poll-metrics';
import { PollingPart } from './polling.part';
import { TICK_OBSERVERS, type TickObserver } from './tick-observer';

/**
 * Polling and the tick observers it tells, given by the scraper's wiring: the observers' modules
 * sit above polling, so polling names none of them.
 */
@Module({})
export class PollingModule {
  static observedBy(options: {
    imports: ModuleMetadata['imports'];
    observers: Type<TickObserver>[];
  }): DynamicModule {
    return {
      module: PollingModule,
      imports: [JolokiaModule, HistoryModule, ...(options.imports ?? [])],
      providers: [
        PollingPart,
        PollMetrics,
        SignalPublisher,
        {
          provide: TICK_OBSERVERS,
          inject: options.observers,
          useFactory: (...observers: TickObserver[]) => observers,
        },
      ],
      exports: [PollingPart],
    };
  }
}
