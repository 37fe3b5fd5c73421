import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { ClustersModule } from '../clusters/clusters.module';
import { StreamController } from './stream.controller';
import { StreamService } from './stream.service';

/** The SSE hub: signals and stored events from the bus to the browsers, with replay. */
@Module({
  imports: [ClustersModule, AccessModule],
  controllers: [StreamController],
  providers: [StreamService],
})
export class StreamModule {}
