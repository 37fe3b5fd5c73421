import { PlatformModule, serviceConfigModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AlertingModule } from './alerting/alerting.module';
import { AlertingPart } from './alerting/alerting.part';
import { BrokerActionsModule } from './broker-actions/broker-actions.module';
import { BrokerActionsPart } from './broker-actions/broker-actions.part';
import { ClusterLinksModule } from './cluster-links/cluster-links.module';
import { ClusterLinksPart } from './cluster-links/cluster-links.part';
import { clusterParts } from './cluster-parts/cluster-parts';
import { ExportModule } from './export/export.module';
import { FigureExportPart } from './export/figure-export.part';
import { HistoryModule } from './history/history.module';
import { LiveListsModule } from './live-lists/live-lists.module';
import { LiveListsPart } from './live-lists/live-lists.part';
import { MessageExportModule } from './message-export/message-export.module';
import { MessageExportPart } from './message-export/message-export.part';
import { MessageJobsModule } from './message-jobs/message-jobs.module';
import { MessageJobsPart } from './message-jobs/message-jobs.part';
import { OwnershipModule } from './ownership/ownership.module';
import { PollingModule } from './polling/polling.module';
import { PollingPart } from './polling/polling.part';
import { SCRAPER_CONFIG, loadScraperConfig } from './scraper.config';

/**
 * The scraper's wiring (ADR-0001, parts): what runs for each cluster this replica owns, started in
 * this order and stopped in the reverse, and what each tick tells. A new per-cluster feature is a
 * module with a part, added to `parts` here; the typecheck fails while an owner RPC has no part.
 */
@Module({
  imports: [
    PlatformModule.forService({ service: 'scraper', defaultPort: 8081 }),
    ScheduleModule.forRoot(),
    serviceConfigModule(SCRAPER_CONFIG, loadScraperConfig),
    HistoryModule,
    OwnershipModule.forParts({
      imports: [
        PollingModule.observedBy({
          imports: [AlertingModule, ExportModule, ClusterLinksModule],
          observers: [AlertingPart, FigureExportPart, ClusterLinksPart],
        }),
        AlertingModule,
        ExportModule,
        ClusterLinksModule,
        LiveListsModule,
        BrokerActionsModule,
        MessageJobsModule,
        MessageExportModule,
      ],
      parts: clusterParts([
        PollingPart,
        AlertingPart,
        FigureExportPart,
        ClusterLinksPart,
        LiveListsPart,
        BrokerActionsPart,
        MessageJobsPart,
        MessageExportPart,
      ]),
    }),
  ],
})
export class ScraperModule {}
