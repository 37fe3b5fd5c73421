import { Module } from '@nestjs/common';
import { IncidentQueries } from './incident.queries';
import { IncidentsController } from './incidents.controller';

/** A cluster's incident: its alerts, events, actions and failovers on one timeline (issue 61, item 3). */
@Module({
  controllers: [IncidentsController],
  providers: [IncidentQueries],
})
export class IncidentsModule {}
