import { SettingsService } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { IntakeBuffer } from '../intake/intake-buffer';
import { EventStoreMetrics } from '../metrics/event-store-metrics';
import { HistoryModule } from '../history/history.module';
import { EventStoreWriterService } from './event-store-writer.service';

/** The writer role: the lock, the intake buffer, batched writes and the stored-event publication. */
@Module({
  imports: [HistoryModule],
  providers: [
    {
      provide: IntakeBuffer,
      useFactory: (settings: SettingsService) =>
        new IntakeBuffer(() => settings.get('artemis-studio.events.buffer-size')),
      inject: [SettingsService],
    },
    EventStoreMetrics,
    EventStoreWriterService,
  ],
  exports: [EventStoreWriterService],
})
export class WriterModule {}
