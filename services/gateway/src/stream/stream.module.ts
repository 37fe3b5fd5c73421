import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ClustersModule } from '../clusters/clusters.module';
import { StreamController } from './stream.controller';
import { StreamMetrics } from './stream-metrics';
import { StreamService } from './stream.service';

/** The SSE hub: signals and stored events from the bus to the browsers, with replay. */
@Module({
  imports: [ClustersModule, AccessModule],
  controllers: [StreamController],
  providers: [StreamService, StreamMetrics],
})
export class StreamModule {}
