import { SignalPublisher } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { JolokiaModule } from '../jolokia/jolokia.module';
import { MessageJobsPart } from './message-jobs.part';

@Module({
  imports: [JolokiaModule],
  providers: [MessageJobsPart, SignalPublisher],
  exports: [MessageJobsPart],
})
export class MessageJobsModule {}
