import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { OwnerModule } from '../owner/owner.module';
import { AlertDeliveriesController } from './alert-deliveries.controller';
import { AlertReceiversController } from './alert-receivers.controller';
import { AlertReceiversRepository } from './alert-receivers.repository';
import { AlertRuleSuggestionsController } from './alert-rule-suggestions.controller';
import { AlertRulesController } from './alert-rules.controller';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertSilencesController } from './alert-silences.controller';
import { AlertSilencesRepository } from './alert-silences.repository';
import { AlertsController } from './alerts.controller';
import { ReceiverTestsRepository } from './receiver-tests.repository';
import { AlertsRepository } from './alerts.repository';
import { AlertActionQueries } from './alert-actions.queries';
import { ClusterAlertsController } from './cluster-alerts.controller';

/** Alert rules, silences, receivers and the alerts themselves (issue 29); the owner evaluates and delivers. */
@Module({
  imports: [ClustersModule, OwnerModule],
  // In this order, the routes keep the order of the OpenAPI document's paths.
  controllers: [
    AlertsController,
    AlertRuleSuggestionsController,
    AlertRulesController,
    ClusterAlertsController,
    AlertDeliveriesController,
    AlertSilencesController,
    AlertReceiversController,
  ],
  providers: [
    AlertRulesRepository,
    AlertSilencesRepository,
    AlertReceiversRepository,
    AlertsRepository,
    AlertActionQueries,
    ReceiverTestsRepository,
  ],
})
export class AlertsModule {}
