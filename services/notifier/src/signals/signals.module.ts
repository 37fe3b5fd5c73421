import { SettingsService, SignalPublisher } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { TopicCoalescer } from './topic-coalescer';

/** Signals, and the coalescer that turns a burst of notifications into one signal per topic (ADR-0027). */
@Module({
  providers: [
    SignalPublisher,
    {
      provide: TopicCoalescer,
      useFactory: (settings: SettingsService, signals: SignalPublisher) =>
        new TopicCoalescer(
          () => settings.get('artemis-studio.events.coalesce-window-millis'),
          (clusterId, topic) => signals.signal(clusterId, topic),
        ),
      inject: [SettingsService, SignalPublisher],
    },
  ],
  exports: [SignalPublisher, TopicCoalescer],
})
export class SignalsModule {}
