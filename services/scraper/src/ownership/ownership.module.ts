import { SignalPublisher } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { JolokiaModule } from '../jolokia/jolokia.module';
import { QueuesModule } from '../queues/queues.module';
import { AlertHistoryReaperService } from '../alerting/alert-history-reaper.service';
import { AlertMetrics } from '../alerting/alert-metrics';
import { FigureExportService } from '../export/figure-export.service';
import { PollMetrics } from '../polling/poll-metrics';
import { PollerOwnershipService } from './poller-ownership.service';

/** The clusters this replica polls, their pollers and their live-list reads. */
@Module({
  imports: [JolokiaModule, QueuesModule],
  providers: [
    PollerOwnershipService,
    SignalPublisher,
    PollMetrics,
    AlertMetrics,
    AlertHistoryReaperService,
    FigureExportService,
  ],
})
export class OwnershipModule {}
