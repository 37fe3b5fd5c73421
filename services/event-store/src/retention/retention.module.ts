import { Module } from '@nestjs/common';
import { QueriesModule } from '../queries/queries.module';
import { WriterModule } from '../writer/writer.module';
import { RetentionService } from './retention.service';

/** Hourly reaping past the retention, on the writer replica. */
@Module({ imports: [QueriesModule, WriterModule], providers: [RetentionService] })
export class RetentionModule {}
