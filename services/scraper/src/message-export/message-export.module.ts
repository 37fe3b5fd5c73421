import { Module } from '@nestjs/common';
import { JolokiaModule } from '../jolokia/jolokia.module';
import { MessageExportPart } from './message-export.part';

@Module({ imports: [JolokiaModule], providers: [MessageExportPart], exports: [MessageExportPart] })
export class MessageExportModule {}
