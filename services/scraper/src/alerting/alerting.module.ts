import { SignalPublisher } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { HistoryModule } from '../history/history.module';
import { AlertMetrics } from './alert-metrics';
import { AlertingPart } from './alerting.part';
import { AlertCouriers } from './delivery/alert-couriers';
import { AlertHistoryReaperService } from './evaluation/alert-history-reaper.service';
import { FleetWatchService } from './evaluation/fleet-watch.service';

/**
 * Alerting: the per-cluster part (evaluation and delivery), the fleet's watch of who polls each
 * cluster (run on every replica, owner or not), and the reaping of resolved alerts.
 */
@Module({
  imports: [HistoryModule],
  providers: [
    AlertingPart,
    AlertMetrics,
    AlertCouriers,
    AlertHistoryReaperService,
    FleetWatchService,
    SignalPublisher,
  ],
  exports: [AlertingPart],
})
export class AlertingModule {}
