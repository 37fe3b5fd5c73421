import type { z } from 'zod';
import { AuditEventSchema } from '../http/access';
import { AlertTransitionSchema } from './alert';
import { BUCKETS, subjectPatterns } from '../subjects';
import { RawBrokerEventSchema, StoredBrokerEventSchema } from './broker-event';
import { CapabilityVerdictSchema } from './capability';
import { ClusterChangeSchema } from './cluster-change';
import { LeaseSchema } from './lease';
import { MemberSchema } from './member';
import { LiveNodeSetSchema } from './live-nodes';
import { ObservationMarkSchema } from './observation';
import { SignalSchema } from './signal';
import { streams, type StreamDef } from './streams';

/**
 * A kind of message on the bus: the subjects it travels on and the schema every receiver
 * validates it against; with a `stream`, it is also captured by that JetStream stream, to be
 * published durably and consumed with acknowledgements.
 */
export interface Channel<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly schema: S;
  /** Matches this channel's subjects for every cluster. */
  readonly pattern: string;
  readonly stream?: StreamDef;
}
export type PayloadOf<C extends Channel> = z.infer<C['schema']>;

export const channels = {
  signal: { name: 'signal', schema: SignalSchema, pattern: subjectPatterns.signal() },
  eventRaw: {
    name: 'event.raw',
    schema: RawBrokerEventSchema,
    pattern: subjectPatterns.eventRaw(),
    stream: streams.events,
  },
  eventStored: {
    name: 'event.stored',
    schema: StoredBrokerEventSchema,
    pattern: subjectPatterns.eventStored(),
  },
  clusterChange: {
    name: 'cluster.change',
    schema: ClusterChangeSchema,
    pattern: subjectPatterns.clusterChange(),
  },
  /** Published by the gateway once an audit row is committed; the `audit_event` table is the record. */
  audit: { name: 'audit', schema: AuditEventSchema, pattern: subjectPatterns.audit() },
  /** Every alert transition, published by the cluster's owner once it is committed (`alert` is the record). */
  alert: { name: 'alert', schema: AlertTransitionSchema, pattern: subjectPatterns.alert() },
} as const satisfies Record<string, Channel>;

/** A JetStream KV bucket and the schema of its values. */
export interface BucketDef<S extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly schema: S;
}
export type ValueOf<B extends BucketDef> = z.infer<B['schema']>;

export const buckets = {
  liveNodes: { name: BUCKETS.liveNodes, schema: LiveNodeSetSchema },
  capabilities: { name: BUCKETS.capabilities, schema: CapabilityVerdictSchema },
  leases: { name: BUCKETS.leases, schema: LeaseSchema },
  members: { name: BUCKETS.members, schema: MemberSchema },
  observations: { name: BUCKETS.observations, schema: ObservationMarkSchema },
} as const satisfies Record<string, BucketDef>;
