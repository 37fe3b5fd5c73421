import { Module } from '@nestjs/common';
import { NotifierMetrics } from './notifier-metrics';

@Module({ providers: [NotifierMetrics], exports: [NotifierMetrics] })
export class MetricsModule {}
