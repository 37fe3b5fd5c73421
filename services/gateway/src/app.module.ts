import { PlatformModule, serviceConfigModule } from '@artemis-studio/platform';
import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AccessModule } from './access/access.module';
import { AuditModule } from './audit/audit.module';
import { ClustersModule } from './clusters/clusters.module';
import { EventsModule } from './events/events.module';
import { LiveListsModule } from './live-lists/live-lists.module';
import { MetricsModule } from './metrics/metrics.module';
import { BrokerActionsModule } from './broker-actions/broker-actions.module';
import { QueueMessagesModule } from './queue-messages/queue-messages.module';
import { MessageJobsModule } from './message-jobs/message-jobs.module';
import { AlertsModule } from './alerts/alerts.module';
import { IncidentsModule } from './incidents/incidents.module';
import { ProtectionsModule } from './protections/protections.module';
import { QueuesModule } from './queues/queues.module';
import { TopologyModule } from './topology/topology.module';
import { ClusterLinksModule } from './cluster-links/cluster-links.module';
import { DirectoryModule } from './directory/directory.module';
import { GATEWAY_CONFIG, loadGatewayConfig } from './gateway.config';
import { ErrorFilter } from './http/error.filter';
import { OpenApiModule } from './openapi/openapi.module';
import { SettingsModule } from './settings/settings.module';
import { SignInModule } from './sign-in/sign-in.module';
import { StreamModule } from './stream/stream.module';

/** The HTTP API under /api/v1: cluster registration, cluster state, runtime settings and the SSE hub. */
@Module({
  imports: [
    PlatformModule.forService({ service: 'gateway', defaultPort: 8080 }),
    serviceConfigModule(GATEWAY_CONFIG, loadGatewayConfig),
    AuditModule,
    AccessModule,
    SignInModule,
    DirectoryModule,
    ClustersModule,
    TopologyModule,
    ClusterLinksModule,
    QueuesModule,
    BrokerActionsModule,
    QueueMessagesModule,
    MessageJobsModule,
    AlertsModule,
    IncidentsModule,
    ProtectionsModule,
    MetricsModule,
    EventsModule,
    LiveListsModule,
    SettingsModule,
    StreamModule,
    OpenApiModule,
  ],
  providers: [{ provide: APP_FILTER, useClass: ErrorFilter }],
})
export class GatewayModule {}
