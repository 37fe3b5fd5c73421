import { Module } from '@nestjs/common';
import { JolokiaModule } from '../jolokia/jolokia.module';
import { BrokerActionsPart } from './broker-actions.part';

@Module({ imports: [JolokiaModule], providers: [BrokerActionsPart], exports: [BrokerActionsPart] })
export class BrokerActionsModule {}
