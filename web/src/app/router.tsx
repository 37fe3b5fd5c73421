import { LIVE_LIST_KINDS, QUEUE_KINDS, QUEUE_SORT_FIELDS } from '@artemis-studio/contracts';
import {
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
} from '@tanstack/react-router';
import { z } from 'zod';
import type { Live } from '../lib/live';
import { CLUSTER_RANGE_NAMES } from '../lib/metrics/chart-data';
import { AppLayout, NotFound } from './shell/app-layout';
import { ClusterView } from './shell/cluster-view';

/** Each screen is a script of its own, loaded when first shown (issue 31). */
const AccessPage = lazyRouteComponent(
  () => import('../features/access/components/access-page'),
  'AccessPage',
);
const AlertsPage = lazyRouteComponent(
  () => import('../features/alerts/components/alerts-page'),
  'AlertsPage',
);
const AlertPage = lazyRouteComponent(() => import('../features/alerts/components/alert-page'), 'AlertPage');
const IncidentPage = lazyRouteComponent(
  () => import('../features/incidents/components/incident-page'),
  'IncidentPage',
);
const ClusterAlertingPage = lazyRouteComponent(
  () => import('../features/alerts/components/cluster-alerting-page'),
  'ClusterAlertingPage',
);
const ApiReferencePage = lazyRouteComponent(
  () => import('../features/api-reference/components/api-reference-page'),
  'ApiReferencePage',
);
const ClusterSettingsPage = lazyRouteComponent(
  () => import('../features/clusters/components/cluster-settings-page'),
  'ClusterSettingsPage',
);
const ClustersPage = lazyRouteComponent(
  () => import('../features/clusters/components/clusters-page'),
  'ClustersPage',
);
const EventsPage = lazyRouteComponent(
  () => import('../features/events/components/events-page'),
  'EventsPage',
);
const LiveListPage = lazyRouteComponent(
  () => import('../features/live-lists/components/live-list-page'),
  'LiveListPage',
);
const OverviewPage = lazyRouteComponent(
  () => import('../features/clusters/components/overview-page'),
  'OverviewPage',
);
const QueueDetailPage = lazyRouteComponent(
  () => import('../features/queues/components/queue-detail-page'),
  'QueueDetailPage',
);
const QueuesPage = lazyRouteComponent(
  () => import('../features/queues/components/queues-page'),
  'QueuesPage',
);
const SettingsPage = lazyRouteComponent(
  () => import('../features/settings/components/settings-page'),
  'SettingsPage',
);

interface RouterContext {
  live: Live;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: AppLayout,
  notFoundComponent: NotFound,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/clusters' });
  },
});

const clustersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/clusters',
  component: ClustersPage,
});
const settingsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/settings',
  component: SettingsPage,
});

const accessRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/access',
  component: AccessPage,
});
/** The Alerts page's filters are part of its link: a shared URL shows the same alerts. */
const AlertsSearchSchema = z.object({
  state: z.enum(['active', 'firing', 'pending', 'resolved']).optional().catch(undefined),
  severity: z.enum(['critical', 'warning', 'info']).optional().catch(undefined),
  cluster: z.string().uuid().optional().catch(undefined),
  rule: z.string().uuid().optional().catch(undefined),
  // A boolean in the URL (`silenced=true`): the router reads search values as JSON.
  silenced: z.boolean().optional().catch(undefined),
});
const alertsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/alerts',
  validateSearch: AlertsSearchSchema,
  component: AlertsPage,
});
const apiReferenceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/http-api',
  component: ApiReferencePage,
});
/** Where the identity provider's refusals land (`?error=`); signed in, it is the clusters. */
const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/sign-in',
  beforeLoad: () => {
    throw redirect({ to: '/clusters' });
  },
});

/** Every screen of one cluster shares this route's stream (ClusterView). */
const clusterRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/clusters/$clusterId',
  component: ClusterView,
});

const overviewRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: '/',
  validateSearch: z.object({ range: z.enum(CLUSTER_RANGE_NAMES).optional().catch(undefined) }),
  component: OverviewPage,
});

/** Search parameters are part of the link: a reload or a shared URL shows the same rows. */
const QueuesSearchSchema = z.object({
  search: z.string().max(200).optional().catch(undefined),
  sort: z.enum(QUEUE_SORT_FIELDS).optional().catch(undefined),
  order: z.enum(['asc', 'desc']).optional().catch(undefined),
  address: z.string().max(4096).optional().catch(undefined),
  routingType: z.enum(['ANYCAST', 'MULTICAST']).optional().catch(undefined),
  consumers: z.enum(['with', 'without']).optional().catch(undefined),
  kind: z.enum(QUEUE_KINDS).optional().catch(undefined),
});
const queuesRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: 'queues',
  validateSearch: QueuesSearchSchema,
  component: QueuesPage,
});

const queueDetailRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: 'queues/$queue',
  validateSearch: z.object({ range: z.enum(['15m', '1h', '6h', '24h']).optional().catch(undefined) }),
  component: QueueDetailPage,
});

const LiveListSearchSchema = z.object({
  page: z.coerce.number().int().min(1).optional().catch(undefined),
  search: z.string().max(500).optional().catch(undefined),
  sort: z.string().max(100).optional().catch(undefined),
  order: z.enum(['asc', 'desc']).optional().catch(undefined),
});
const liveListRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: '$kind',
  params: {
    parse: ({ kind }) => ({ kind: z.enum(LIVE_LIST_KINDS).parse(kind) }),
    stringify: ({ kind }) => ({ kind }),
  },
  validateSearch: LiveListSearchSchema,
  component: LiveListPage,
});

const EventsSearchSchema = z.object({
  type: z.string().max(100).optional().catch(undefined),
  address: z.string().max(4096).optional().catch(undefined),
  queue: z.string().max(4096).optional().catch(undefined),
  node: z.string().max(200).optional().catch(undefined),
  consumer: z.string().max(4096).optional().catch(undefined),
  from: z.iso.datetime({ offset: true }).optional().catch(undefined),
  to: z.iso.datetime({ offset: true }).optional().catch(undefined),
});
const eventsRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: 'events',
  validateSearch: EventsSearchSchema,
  component: EventsPage,
});

const clusterAlertingRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: 'alerting',
  component: ClusterAlertingPage,
});
const alertRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: 'alerts/$alertId',
  component: AlertPage,
});

/** Around an alert (`alert`) or over a range (`from`, `to`): a link a notification or a colleague can hold. */
const IncidentSearchSchema = z.object({
  alert: z.string().uuid().optional().catch(undefined),
  from: z.iso.datetime({ offset: true }).optional().catch(undefined),
  to: z.iso.datetime({ offset: true }).optional().catch(undefined),
});
const incidentRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: 'incident',
  validateSearch: IncidentSearchSchema,
  component: IncidentPage,
});

const clusterSettingsRoute = createRoute({
  getParentRoute: () => clusterRoute,
  path: 'settings',
  component: ClusterSettingsPage,
});

const routeTree = rootRoute.addChildren([
  indexRoute,
  clustersRoute,
  settingsRoute,
  accessRoute,
  apiReferenceRoute,
  alertsRoute,
  signInRoute,
  clusterRoute.addChildren([
    overviewRoute,
    queuesRoute,
    queueDetailRoute,
    eventsRoute,
    clusterAlertingRoute,
    alertRoute,
    incidentRoute,
    clusterSettingsRoute,
    liveListRoute,
  ]),
]);

export function createAppRouter(live: Live) {
  return createRouter({ routeTree, context: { live }, defaultPreload: 'intent', scrollRestoration: true });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
