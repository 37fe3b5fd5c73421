import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import {
  NODE_ROLLUP_RESOLUTIONS_S,
  HOURLY_HISTORY,
  NodeStateEntity,
  reapHourlyHistory,
  rowsOf,
  whileClusterExists,
  type Reaped,
} from '@artemis-studio/db';
import type { NodeObservation } from './node-observation';

/**
 * `node_state`: the persisted tier-A observation of each node, the "previous" of the next diff;
 * and `node_sample`: each reachable node's connections, disk and address memory at every tick, for
 * its history (a figure the broker did not give is null), and the highest of each per minute and
 * per hour in `node_rollup` (ADR-0020), beside the node's queue totals the tier-B tick rolls up.
 */
@Injectable()
export class NodeStateRepository {
  constructor(@Inject(DatabaseService) private readonly database: Pick<DatabaseService, 'whenReady'>) {}

  async load(clusterId: string): Promise<NodeObservation[]> {
    const db = await this.database.whenReady();
    const rows = await db.getRepository(NodeStateEntity).findBy({ clusterId });
    return rows.map((r) => ({
      nodeId: r.nodeId,
      name: '',
      observedAt: r.observedAt,
      lastOkAt: r.lastOkAt,
      reachable: r.reachable,
      role: r.role,
      active: r.active,
      backup: r.backup,
      replicaSync: r.replicaSync,
      brokerNodeId: r.brokerNodeId,
      brokerName: null,
      version: r.version,
      uptimeMs: r.uptimeMs,
      connectionCount: r.connectionCount,
      diskUsage: r.diskUsage,
      diskLimit: r.diskLimit,
      memoryBytes: r.memoryBytes,
      memoryLimitBytes: r.memoryLimitBytes,
      reason: r.reason,
      lastRole: r.lastRole,
      roleChangedAt: r.roleChangedAt,
    }));
  }

  /** Writes a tick's observations; false, writing nothing, when the cluster has been deleted meanwhile. */
  async save(clusterId: string, observations: NodeObservation[]): Promise<boolean> {
    const db = await this.database.whenReady();
    if (observations.length === 0) return true;
    const saved = await whileClusterExists(db, clusterId, async (tx) => {
      await tx.getRepository(NodeStateEntity).upsert(
        observations.map((o) => ({
          nodeId: o.nodeId,
          clusterId,
          observedAt: o.observedAt,
          lastOkAt: o.lastOkAt,
          uptimeMs: o.uptimeMs,
          connectionCount: o.connectionCount,
          reachable: o.reachable,
          active: o.active,
          backup: o.backup,
          replicaSync: o.replicaSync,
          role: o.role,
          brokerNodeId: o.brokerNodeId,
          version: o.version,
          reason: o.reason,
          diskUsage: o.diskUsage,
          diskLimit: o.diskLimit,
          memoryBytes: o.memoryBytes,
          memoryLimitBytes: o.memoryLimitBytes,
          lastRole: o.lastRole,
          roleChangedAt: o.roleChangedAt,
        })),
        ['nodeId'],
      );
      const sampled = observations.filter((o) => o.reachable);
      if (sampled.length === 0) return true;
      await rowsOf(
        tx,
        `WITH t AS (
           SELECT * FROM unnest($2::timestamptz[], $3::uuid[], $4::int[], $5::real[], $6::real[], $7::bigint[], $8::bigint[])
             AS t(sampled_at, node_id, connections, disk_usage, disk_limit, memory, memory_limit)
         ), sampled AS (
           INSERT INTO node_sample (sampled_at, cluster_id, node_id, connection_count, disk_usage, disk_limit,
                                    memory_bytes, memory_limit_bytes)
           SELECT t.sampled_at, $1, t.node_id, t.connections, t.disk_usage, t.disk_limit, t.memory, t.memory_limit
             FROM t
         )
         INSERT INTO node_rollup AS r (cluster_id, resolution_s, bucket, node_id, connections_max, disk_usage_max,
                                       disk_limit_max, memory_bytes_max, memory_limit_bytes_max)
         SELECT $1, res, date_bin(make_interval(secs => res), t.sampled_at, 'epoch'), t.node_id, t.connections,
                t.disk_usage, t.disk_limit, t.memory, t.memory_limit
           FROM t, unnest($9::int[]) res
         ON CONFLICT (cluster_id, resolution_s, bucket, node_id) DO UPDATE SET
           connections_max = greatest(r.connections_max, EXCLUDED.connections_max),
           disk_usage_max = greatest(r.disk_usage_max, EXCLUDED.disk_usage_max),
           disk_limit_max = greatest(r.disk_limit_max, EXCLUDED.disk_limit_max),
           memory_bytes_max = greatest(r.memory_bytes_max, EXCLUDED.memory_bytes_max),
           memory_limit_bytes_max = greatest(r.memory_limit_bytes_max, EXCLUDED.memory_limit_bytes_max)`,
        [
          clusterId,
          sampled.map((o) => o.observedAt),
          sampled.map((o) => o.nodeId),
          sampled.map((o) => o.connectionCount),
          sampled.map((o) => o.diskUsage),
          sampled.map((o) => o.diskLimit),
          sampled.map((o) => o.memoryBytes),
          sampled.map((o) => o.memoryLimitBytes),
          NODE_ROLLUP_RESOLUTIONS_S,
        ],
      );
      return true;
    });
    return saved !== null;
  }

  /** The nodes' journal disk usage sampled in [since, until), oldest first (for the disk forecasts). */
  async diskUsageBetween(
    clusterId: string,
    since: Date,
    until: Date,
  ): Promise<{ nodeId: string; atMs: number; diskUsage: number }[]> {
    const db = await this.database.whenReady();
    const rows = await rowsOf<{ nodeId: string; at: Date; diskUsage: number }>(
      db,
      `SELECT node_id AS "nodeId", sampled_at AS at, disk_usage AS "diskUsage" FROM node_sample
        WHERE cluster_id = $1 AND sampled_at >= $2 AND sampled_at < $3 AND disk_usage IS NOT NULL
        ORDER BY sampled_at`,
      [clusterId, since, until],
    );
    return rows.map((r) => ({ nodeId: r.nodeId, atMs: r.at.getTime(), diskUsage: r.diskUsage }));
  }

  /** Removes node samples older than the cut-off, as the queue samples are. */
  async reapSamples(olderThan: Date, batchSize = 10_000): Promise<Reaped> {
    const db = await this.database.whenReady();
    return reapHourlyHistory(db, HOURLY_HISTORY.node_sample, olderThan, batchSize);
  }
}
