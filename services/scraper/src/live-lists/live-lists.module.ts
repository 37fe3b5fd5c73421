import { Module } from '@nestjs/common';
import { JolokiaModule } from '../jolokia/jolokia.module';
import { LiveListsPart } from './live-lists.part';

@Module({ imports: [JolokiaModule], providers: [LiveListsPart], exports: [LiveListsPart] })
export class LiveListsModule {}
