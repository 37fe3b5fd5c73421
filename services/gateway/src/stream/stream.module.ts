import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { StreamController } from './stream.controller';
import { StreamService } from './stream.service';

/** The SSE hub: signals and stored events from the bus to the browsers, with replay. */
@Module({
  imports: [ClustersModule],
  controllers: [StreamController],
  providers: [StreamService],
})
export class StreamModule {}
