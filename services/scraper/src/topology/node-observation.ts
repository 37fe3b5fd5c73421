import { attributeError, count, flag, text } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { RING_QUEUES_REQUEST } from '../notification-rings/notification-ring';

type NodeRole = 'live' | 'backup' | 'unknown';

/** What tier A saw of one node; persisted as its `node_state` row. */
export interface NodeObservation {
  nodeId: string;
  name: string;
  observedAt: Date;
  lastOkAt: Date | null;
  reachable: boolean;
  role: NodeRole;
  active: boolean | null;
  backup: boolean | null;
  replicaSync: boolean | null;
  brokerNodeId: string | null;
  /** The broker's own name (its MBean key); kept in memory, not persisted. */
  brokerName: string | null;
  version: string | null;
  uptimeMs: number | null;
  /** Client connections open on the node. */
  connectionCount: number | null;
  /** Journal disk usage, and the usage past which the broker blocks producers (fractions of the disk). */
  diskUsage: number | null;
  diskLimit: number | null;
  /** Memory held by addresses, and the global limit past which they page or block. */
  memoryBytes: number | null;
  memoryLimitBytes: number | null;
  /** Why the node is unreachable or refused us; null when it answered. */
  reason: string | null;
  /**
   * The role it was last seen in, kept while it is unreachable, and when it last changed (a
   * failover or failback) as the observations saw it; persisted, so a new owner knows both.
   */
  lastRole: 'live' | 'backup' | null;
  roleChangedAt: Date | null;
}

const BROKER_ATTRIBUTES = [
  'Name',
  'Version',
  'NodeID',
  'Active',
  'Backup',
  'ReplicaSync',
  'UptimeMillis',
  'ConnectionCount',
  'DiskStoreUsage',
  'MaxDiskUsage',
  'AddressMemoryUsage',
  'GlobalMaxSize',
];

/** A fraction of the disk, as the broker gives it (0..1); anything else is unknown. */
const fraction = (v: unknown): number | null => {
  const n = typeof v === 'number' && Number.isFinite(v) ? v : null;
  return n !== null && n >= 0 && n <= 1 ? n : null;
};
/** `max-disk-usage` in percent; -1 (no limit) or anything outside 0..100 is "no limit known". */
const percentAsFraction = (v: unknown): number | null => {
  const n = count(v);
  return n !== null && n >= 0 && n <= 100 ? n / 100 : null;
};
/** A size in bytes; -1 (unlimited) and other negatives are unknown. */
const bytes = (v: unknown): number | null => {
  const n = count(v);
  return n !== null && n >= 0 ? n : null;
};

/**
 * Tier A is one bulk request per node: a wildcard read of the broker MBean, then of the queues on
 * the notification address (Studio's ring there, notification-rings/).
 */
export const TIER_A_REQUESTS: JolokiaRequest[] = [
  { type: 'read', mbean: 'org.apache.activemq.artemis:broker=*', attribute: BROKER_ATTRIBUTES },
  RING_QUEUES_REQUEST,
];

/**
 * HA state is observed, never configured (non-negotiable 3): a node is live when its broker says
 * it is active, whatever its configured policy; a reachable node that is not active is a backup.
 */
export function observeBroker(
  node: { nodeId: string; name: string },
  answers: JolokiaResponse[],
  observedAt: Date,
): NodeObservation {
  const answer = answers[0];
  if (!answer || answer.status !== 200) {
    return unreachableNode(
      node,
      `broker MBean read failed: ${answer?.error ?? 'no answer'}`,
      observedAt,
      null,
    );
  }
  const brokers = Object.values((answer.value ?? {}) as Record<string, Record<string, unknown>>);
  const broker = brokers[0];
  if (!broker)
    return unreachableNode(node, 'Jolokia answered, but no broker MBean is registered', observedAt, null);
  const active = flag(broker.Active);
  // A broker that cannot say whether it is active is not serving: never live, and why is kept.
  if (active === null)
    return unreachableNode(
      node,
      `the broker could not say whether it is active: ${attributeError(broker.Active) ?? 'no Active attribute'}`,
      observedAt,
      null,
    );
  return {
    ...node,
    observedAt,
    lastOkAt: observedAt,
    reachable: true,
    role: active ? 'live' : 'backup',
    active,
    backup: flag(broker.Backup),
    replicaSync: flag(broker.ReplicaSync),
    brokerNodeId: text(broker.NodeID),
    brokerName: text(broker.Name),
    version: text(broker.Version),
    uptimeMs: count(broker.UptimeMillis),
    connectionCount: count(broker.ConnectionCount),
    // The broker says 0.0 until its first disk scan (disk-scan-period, 5 s by default) after a
    // start; no journal's disk is ever empty, so 0 is "not measured yet", not "empty".
    diskUsage: fraction(broker.DiskStoreUsage) || null,
    diskLimit: percentAsFraction(broker.MaxDiskUsage),
    memoryBytes: bytes(broker.AddressMemoryUsage),
    memoryLimitBytes: bytes(broker.GlobalMaxSize),
    reason: null,
    lastRole: active ? 'live' : 'backup',
    roleChangedAt: null,
  };
}

export function unreachableNode(
  node: { nodeId: string; name: string },
  reason: string,
  observedAt: Date,
  lastOkAt: Date | null,
): NodeObservation {
  return {
    ...node,
    observedAt,
    lastOkAt,
    reachable: false,
    role: 'unknown',
    active: null,
    backup: null,
    replicaSync: null,
    brokerNodeId: null,
    brokerName: null,
    version: null,
    uptimeMs: null,
    connectionCount: null,
    diskUsage: null,
    diskLimit: null,
    memoryBytes: null,
    memoryLimitBytes: null,
    reason,
    lastRole: null,
    roleChangedAt: null,
  };
}

/**
 * An observation with the role history its node's previous observation carried: the role last seen
 * (an unreachable node keeps it), and the moment it changed, which is this observation's when the
 * node answers in another role than the last one seen.
 */
export function withRoleHistory(o: NodeObservation, previous: NodeObservation | undefined): NodeObservation {
  const last = previous?.lastRole ?? null;
  const since = previous?.roleChangedAt ?? null;
  if (o.role === 'unknown') return { ...o, lastRole: last, roleChangedAt: since };
  return { ...o, lastRole: o.role, roleChangedAt: last !== null && last !== o.role ? o.observedAt : since };
}

/** The topology as a comparable value: node set, reachability and roles. */
export function topologyKey(observations: readonly NodeObservation[]): string {
  return observations
    .map((o) => `${o.nodeId}:${o.reachable}:${o.role}:${o.brokerNodeId ?? ''}`)
    .sort()
    .join('|');
}
