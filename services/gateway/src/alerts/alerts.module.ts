import { Module } from '@nestjs/common';
import { ClustersModule } from '../clusters/clusters.module';
import { OwnerModule } from '../owner/owner.module';
import { AlertReceiversRepository } from './alert-receivers.repository';
import { AlertRulesController } from './alert-rules.controller';
import { AlertRulesRepository } from './alert-rules.repository';
import { AlertsController } from './alerts.controller';
import { AlertsRepository } from './alerts.repository';

/** Alert rules, silences, receivers and the alerts themselves (issue 29); the owner evaluates and delivers. */
@Module({
  imports: [ClustersModule, OwnerModule],
  controllers: [AlertsController, AlertRulesController],
  providers: [AlertRulesRepository, AlertReceiversRepository, AlertsRepository],
})
export class AlertsModule {}
