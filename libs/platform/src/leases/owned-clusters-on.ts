import type { Bus, TypedKv } from '@artemis-studio/bus';
import { buckets, memberKey, type Lease, type Member } from '@artemis-studio/contracts';
import { ClusterTargetQueries, InstallationQueries, SecretVault } from '@artemis-studio/db';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { DataSource } from 'typeorm';
import { ClusterLeases } from './cluster-leases';
import type { ClusterWork, OwnedClustersOptions } from './cluster-work';
import { OwnedClusters } from './owned-clusters';
import { ReplicaMembership } from './replica-membership';

/**
 * This process's name in leases: STUDIO_REPLICA_ID when set (validated at start), so that a
 * restarted process is the same owner and renews its leases at once; otherwise host, pid and a
 * random part, so that a restarted process is a new owner and waits for its predecessor's leases
 * to lapse. The notifier's waiting is a window with no subscription, and the broker keeps no
 * notification for an absent subscriber: the fault suite lost 1.3 s of them with a 3 s TTL.
 */
export function replicaId(env: NodeJS.ProcessEnv = process.env): string {
  return env.STUDIO_REPLICA_ID || `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
}

export interface OwnedClustersForOptions<W extends ClusterWork> extends Pick<
  OwnedClustersOptions<W>,
  'start' | 'released' | 'log' | 'handOver'
> {
  bus: Bus;
  dataSource: DataSource;
  /** The leasing service: replicas of one service share leases, other services have their own. */
  service: string;
  owner: string;
  /** The vault key that opens the registered clusters' credentials. */
  secretKey: string;
  leaseTtlMs: number;
}

/** OwnedClusters over the cluster registry, the `studio_leases` and the `studio_members` buckets. */
export async function ownedClustersFor<W extends ClusterWork>(
  options: OwnedClustersForOptions<W>,
): Promise<OwnedClusters<W>> {
  const catalog = new ClusterTargetQueries(options.dataSource, SecretVault.fromBase64(options.secretKey));
  const installation = await new InstallationQueries(options.dataSource).id();
  return ownedClustersOn(await options.bus.kv(buckets.leases), await options.bus.kv(buckets.members), {
    ...options,
    installation,
    clusters: () => catalog.list(),
    reachable: () => options.bus.state === 'connected',
  });
}

/**
 * OwnedClusters over these two buckets, nudged when a lease is handed back (its preferred owner
 * takes it at once) and when a replica joins or leaves (clusters move now, not at the next renewal;
 * a heartbeat moves nothing).
 */
export function ownedClustersOn<W extends ClusterWork>(
  leases: TypedKv<Lease>,
  members: TypedKv<Member>,
  options: { installation: string } & Pick<
    OwnedClustersForOptions<W>,
    'service' | 'owner' | 'leaseTtlMs' | 'start' | 'released' | 'log' | 'handOver'
  > &
    Pick<OwnedClustersOptions<W>, 'clusters' | 'reachable'>,
): OwnedClusters<W> {
  const ofService = (key: string) => key.startsWith(`${options.service}.`);
  const ofInstallation = (key: string) =>
    key.startsWith(memberKey(options.service, options.installation, ''));
  const owned: OwnedClusters<W> = new OwnedClusters({
    leases: new ClusterLeases(leases, options.service, options.owner, options.leaseTtlMs),
    membership: new ReplicaMembership(
      members,
      options.service,
      options.installation,
      options.owner,
      options.leaseTtlMs,
    ),
    clusters: options.clusters,
    start: options.start,
    released: options.released,
    handOver: options.handOver,
    reachable: options.reachable,
    log: options.log,
    stopping: async () => {
      await handedBack.stop();
      await joinedOrLeft.stop();
    },
  });
  const handedBack = leases.watch((key, lease) => {
    if (lease === null && ofService(key)) owned.nudge();
  });
  const seen = new Set<string>();
  const joinedOrLeft = members.watch((key, member) => {
    if (!ofInstallation(key)) return;
    const changed = member === null ? seen.delete(key) : !seen.has(key) && Boolean(seen.add(key));
    if (changed) owned.nudge();
  });
  return owned;
}
