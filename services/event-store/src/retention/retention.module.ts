import { Module } from '@nestjs/common';
import { HistoryModule } from '../history/history.module';
import { WriterModule } from '../writer/writer.module';
import { RetentionService } from './retention.service';

/** The days of `broker_event` made ahead on every replica; reaping past the retention on the writer. */
@Module({ imports: [HistoryModule, WriterModule], providers: [RetentionService] })
export class RetentionModule {}
