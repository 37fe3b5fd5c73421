import type { SignalTopic } from './topics';

/*
 * The NATS contract (docs/nats-contract.md). Other tools tap these subjects: DO NOT CHANGE a name
 * without a new version prefix and a migration plan.
 */
const SUBJECT_PREFIX = 'studio.v1';

export const subjects = {
  signal: (clusterId: string, topic: SignalTopic) => `${SUBJECT_PREFIX}.cluster.${clusterId}.signal.${topic}`,
  eventRaw: (clusterId: string) => `${SUBJECT_PREFIX}.cluster.${clusterId}.event.raw`,
  eventStored: (clusterId: string) => `${SUBJECT_PREFIX}.cluster.${clusterId}.event.stored`,
  clusterChange: (clusterId: string) => `${SUBJECT_PREFIX}.cluster.${clusterId}.change`,
  rpc: (name: string) => `${SUBJECT_PREFIX}.rpc.${name}`,
  /** One audited request, by action (`cluster.update`, `auth.sign-in`, …). */
  audit: (action: string) => `${SUBJECT_PREFIX}.audit.${action}`,
  /** An alert's transition (issue 29): `state` is pending, firing or resolved. */
  alert: (clusterId: string, state: string) => `${SUBJECT_PREFIX}.alerts.${clusterId}.${state}`,
} as const;

/** Wildcards matching one kind of subject across clusters (`*` for one cluster id). */
export const subjectPatterns = {
  signal: (clusterId = '*', topic: SignalTopic | '*' = '*') =>
    `${SUBJECT_PREFIX}.cluster.${clusterId}.signal.${topic}`,
  eventRaw: (clusterId = '*') => `${SUBJECT_PREFIX}.cluster.${clusterId}.event.raw`,
  eventStored: (clusterId = '*') => `${SUBJECT_PREFIX}.cluster.${clusterId}.event.stored`,
  clusterChange: (clusterId = '*') => `${SUBJECT_PREFIX}.cluster.${clusterId}.change`,
  audit: () => `${SUBJECT_PREFIX}.audit.>`,
  alert: (clusterId = '*', state = '*') => `${SUBJECT_PREFIX}.alerts.${clusterId}.${state}`,
} as const;

/** The JetStream stream holding `event.raw` for every cluster (declared in bus/streams.ts). */
export const EVENTS_STREAM = 'STUDIO_EVENTS';
/** The event store's durable consumer of it. */
export const EVENTS_STREAM_CONSUMER = 'event-store';

/** JetStream KV buckets. */
export const BUCKETS = {
  liveNodes: 'studio_live_nodes',
  capabilities: 'studio_capabilities',
  leases: 'studio_leases',
  members: 'studio_members',
  observations: 'studio_observations',
} as const;
