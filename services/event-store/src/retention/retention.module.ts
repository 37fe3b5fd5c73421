import { Module } from '@nestjs/common';
import { HistoryModule } from '../history/history.module';
import { WriterModule } from '../writer/writer.module';
import { RetentionService } from './retention.service';

/** Hourly reaping past the retention, on the writer replica. */
@Module({ imports: [HistoryModule, WriterModule], providers: [RetentionService] })
export class RetentionModule {}
