import type { LiveListKind, SignalTopic } from '@artemis-studio/contracts';
import type { QueryKey } from '@tanstack/react-query';

/**
 * Every query key of the console, in one place: features define their queries with these, and the
 * stream invalidates by them. Keys of one cluster start with ['cluster', id].
 */
export const queryKeys = {
  clusters: () => ['clusters'] as const,
  cluster: (clusterId: string) => ['cluster', clusterId] as const,
  clusterDetail: (clusterId: string) => ['cluster', clusterId, 'detail'] as const,
  topology: (clusterId: string) => ['cluster', clusterId, 'topology'] as const,
  queues: (clusterId: string) => ['cluster', clusterId, 'queues'] as const,
  queuePage: (clusterId: string, params: object) => ['cluster', clusterId, 'queues', params] as const,
  /** Under queues: each queue once for the cluster, refetched at a `queues` signal like the per-node page. */
  queuesAcrossNodes: (clusterId: string, params: object) =>
    ['cluster', clusterId, 'queues', 'across-nodes', params] as const,
  /** Under queues: stranded messages change with the queues (cluster connections with them, at tier B). */
  clusterLinks: (clusterId: string) => ['cluster', clusterId, 'queues', 'cluster-links'] as const,
  /** Not under queues: a `queues` signal fetches only the chart's newest buckets (use-queue-metrics). */
  queueMetrics: (clusterId: string, queue: string, range: object) =>
    ['cluster', clusterId, 'queue-metrics', queue, range] as const,
  /** A queue's usual band (ADR-0039): learned from past weeks, it changes by the hour, not by the tick. */
  queueBaseline: (clusterId: string, queue: string, rangeMs: number, hour: number) =>
    ['cluster', clusterId, 'queue-baseline', queue, rangeMs, hour] as const,
  /** Not under queues, like queueMetrics: a `queues` signal fetches only the newest buckets. */
  addressMetrics: (clusterId: string, address: string, range: object) =>
    ['cluster', clusterId, 'address-metrics', address, range] as const,
  /** Not under queues: read when the operator asks (browsing takes the broker's management lock). */
  queueMessages: (clusterId: string, queue: string, params: object) =>
    ['cluster', clusterId, 'queue-messages', queue, params] as const,
  /** Every page of every queue's messages: read again after an action changed a queue. */
  allQueueMessages: (clusterId: string) => ['cluster', clusterId, 'queue-messages'] as const,
  /** Every message job of the cluster: read again on a `jobs` signal. */
  allMessageJobs: (clusterId: string) => ['cluster', clusterId, 'message-jobs'] as const,
  messageJobs: (clusterId: string, queue: string) => ['cluster', clusterId, 'message-jobs', queue] as const,
  /** Under queue-messages: read again when an action or a job changed a queue's messages. */
  deadLetterGroups: (clusterId: string, queue: string) =>
    ['cluster', clusterId, 'queue-messages', queue, 'dead-letters'] as const,
  liveList: (clusterId: string, kind: LiveListKind) => ['cluster', clusterId, kind] as const,
  liveListPage: (clusterId: string, kind: LiveListKind, params: object) =>
    ['cluster', clusterId, kind, params] as const,
  eventHistory: (clusterId: string, filters: object) => ['cluster', clusterId, 'events', filters] as const,
  /** Not an eventHistory key: that one is an infinite query, this a single page. */
  unobservedPeriods: (clusterId: string, window: object) =>
    ['cluster', clusterId, 'events', 'unobserved', window] as const,
  /** Under queues: recomputed when a tier-B sample changes something. */
  clusterMetrics: (clusterId: string, range: object) =>
    ['cluster', clusterId, 'queues', 'cluster-metrics', range] as const,
  queueGrowth: (clusterId: string, params: object) =>
    ['cluster', clusterId, 'queues', 'growth', params] as const,
  /** Alerts across clusters (the Alerts page, the header's count): read again on any `alerts` signal. */
  alerts: () => ['alerts'] as const,
  alertList: (filters: object) => ['alerts', 'list', filters] as const,
  alertSummary: () => ['alerts', 'summary'] as const,
  /** One cluster's rules, silences, receivers, deliveries and alerts. */
  alerting: (clusterId: string) => ['cluster', clusterId, 'alerting'] as const,
  alertingPart: (clusterId: string, part: string, params: object = {}) =>
    ['cluster', clusterId, 'alerting', part, params] as const,
  /** A cluster's incident: a fixed range, read again only when asked (an incident is looked back on). */
  incident: (clusterId: string, params: object) => ['cluster', clusterId, 'incident', params] as const,
  /** Protected patterns change only by a person's hand: read again after a change, not at a signal. */
  protections: (clusterId: string) => ['cluster', clusterId, 'protections'] as const,
  /** Break-glass windows: changed by a person's hand, read again then and when one ends. */
  unmaskedWindows: (clusterId: string) => ['cluster', clusterId, 'unmasked-windows'] as const,
  settings: () => ['settings'] as const,
  /** Who is signed in; refetched when any query is refused as unauthenticated. */
  me: () => ['access', 'me'] as const,
  authConfig: () => ['access', 'config'] as const,
  users: () => ['access', 'users'] as const,
  grants: () => ['access', 'grants'] as const,
  tokens: () => ['access', 'tokens'] as const,
  audit: (filters: object) => ['access', 'audit', filters] as const,
};

/**
 * What a signal makes stale (ADR-0018: a signal says "refetch", never the data). Typed over every
 * signal topic of the contracts, so a topic cannot be added on one side only.
 */
export const TOPIC_QUERY_KEYS: Record<SignalTopic, (clusterId: string) => QueryKey[]> = {
  topology: (id) => [queryKeys.topology(id), queryKeys.clusterDetail(id), queryKeys.clusters()],
  health: (id) => [queryKeys.topology(id), queryKeys.clusters()],
  queues: (id) => [queryKeys.queues(id)],
  consumers: (id) => [queryKeys.liveList(id, 'consumers')],
  sessions: (id) => [queryKeys.liveList(id, 'sessions')],
  connections: (id) => [queryKeys.liveList(id, 'connections')],
  capabilities: (id) => [queryKeys.clusterDetail(id), queryKeys.clusters()],
  jobs: (id) => [queryKeys.allMessageJobs(id)],
  alerts: (id) => [queryKeys.alerts(), queryKeys.alerting(id)],
};
