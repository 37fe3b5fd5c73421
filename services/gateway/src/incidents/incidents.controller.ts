import { Bus, RpcError } from '@artemis-studio/bus';
import {
  INCIDENT_ACTIONS_SHOWN,
  INCIDENT_ALERTS_SHOWN,
  INCIDENT_EVENTS_PER_SUBJECT,
  IncidentQuerySchema,
  IncidentSchema,
  rpcs,
  UNOBSERVED_EVENT_TYPE,
  type EventsPage,
  type EventsQuery,
  type Incident,
  type IncidentMoment,
  type IncidentQuery,
  type IncidentSubject,
} from '@artemis-studio/contracts';
import { BUS } from '@artemis-studio/platform';
import { Controller, Get, Inject, Query } from '@nestjs/common';
import { Access } from '../access/permission';
import { Cluster, type RegisteredCluster } from '../access/registered-cluster';
import { Valid } from '../http/validation.pipe';
import { Describe } from '../openapi/operation';
import { IncidentQueries } from './incident.queries';
import {
  actionMoment,
  alertMoments,
  dropMoments,
  eventMoment,
  inOrder,
  roleMoment,
  subjectsOf,
} from './incident-timeline';

/** Which broker events a slice of the incident reads, and how it is named when cut. */
interface EventSlice {
  filter: Partial<EventsQuery>;
  what: string;
}

const sliceOf = (s: IncidentSubject): EventSlice => ({
  filter: { [s.kind]: s.name },
  what: `${s.kind} ${s.name}`,
});

/**
 * A cluster's incident (issue 61, item 3): its alerts, the broker events of their subjects, the
 * actions people took, unobserved periods, drops and failovers, on one timeline, for the console's
 * incident view and its Markdown and JSON export. For everyone who sees the cluster.
 */
@Controller('api/v1/clusters/:id')
@Access.cluster('viewer')
export class IncidentsController {
  constructor(
    private readonly queries: IncidentQueries,
    @Inject(BUS) private readonly bus: Bus,
  ) {}

  @Get('incident')
  @Describe({
    summary: "A cluster's incident over a range, or around an alert, as one ordered timeline",
    tag: 'alerts',
    query: IncidentQuerySchema,
    status: 200,
    response: IncidentSchema,
  })
  async incident(
    @Cluster() cluster: RegisteredCluster,
    @Query(new Valid(IncidentQuerySchema, 'incident query')) query: IncidentQuery,
  ): Promise<Incident> {
    const { from, to } = query.alert
      ? await this.queries.rangeOfAlert(cluster.id, query.alert)
      : { from: new Date(query.from!), to: new Date(query.to!) };
    const leftOut: string[] = [];
    const alerts = await this.queries.alertsIn(cluster.id, from, to);
    if (alerts.length > INCIDENT_ALERTS_SHOWN)
      leftOut.push(`only the first ${INCIDENT_ALERTS_SHOWN} alerts of the range are on it`);
    const shown = alerts.slice(0, INCIDENT_ALERTS_SHOWN);
    const actions = await this.queries.actionsIn(cluster.id, from, to);
    if (actions.length > INCIDENT_ACTIONS_SHOWN)
      leftOut.push(`only the first ${INCIDENT_ACTIONS_SHOWN} actions of the range are on it`);
    const subjects = subjectsOf(shown);
    // The alerts' subjects' events; with no alert, every event of the cluster in the range.
    const slices: EventSlice[] = [
      ...(subjects.length ? subjects.map(sliceOf) : [{ filter: {}, what: 'the cluster' }]),
      { filter: { type: UNOBSERVED_EVENT_TYPE }, what: 'unobserved periods' },
    ];
    const moments: IncidentMoment[] = [
      ...shown.flatMap(alertMoments),
      ...actions.slice(0, INCIDENT_ACTIONS_SHOWN).map(actionMoment),
      ...(await this.queries.roleChangesIn(cluster.id, from, to)).map(roleMoment),
    ];
    const seen = new Set<number>();
    let drops: EventsPage['drops'] = [];
    for (const slice of slices) {
      const page = await this.events(cluster.id, slice, from, to, leftOut);
      if (!page) continue;
      drops = page.drops;
      for (const event of page.items) {
        // A queue's events are its address's too: each once.
        if (seen.has(event.seq)) continue;
        seen.add(event.seq);
        moments.push(eventMoment(event));
      }
    }
    return {
      clusterId: cluster.id,
      clusterName: cluster.name,
      from: from.toISOString(),
      to: to.toISOString(),
      generatedAt: new Date().toISOString(),
      alerts: shown,
      moments: inOrder([...moments, ...dropMoments(drops, from, to)], from, to),
      subjects,
      leftOut,
    };
  }

  /** One slice's events, newest first up to the bound; the event store down is said, not a 5xx. */
  private async events(
    clusterId: string,
    slice: EventSlice,
    from: Date,
    to: Date,
    leftOut: string[],
  ): Promise<EventsPage | null> {
    const query = {
      ...slice.filter,
      from: from.toISOString(),
      to: to.toISOString(),
      limit: INCIDENT_EVENTS_PER_SUBJECT,
    };
    try {
      const page = await this.bus.request(rpcs.eventsHistory, { clusterId, query });
      if (page.nextCursor !== null)
        leftOut.push(
          `only the latest ${INCIDENT_EVENTS_PER_SUBJECT} broker events of ${slice.what} in the range are on it`,
        );
      return page;
    } catch (err) {
      if (err instanceof RpcError && err.code < 500) throw err;
      leftOut.push(`the broker events of ${slice.what} could not be read: ${(err as Error).message}`);
      return null;
    }
  }
}
