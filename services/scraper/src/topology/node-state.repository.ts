import { NodeStateEntity } from '@artemis-studio/db';
import type { DataSource } from 'typeorm';
import type { NodeObservation } from './node-observation';

/** `node_state`: the persisted tier-A observation of each node, the "previous" of the next diff. */
export class NodeStateRepository {
  constructor(private readonly dataSource: DataSource) {}

  async load(clusterId: string): Promise<NodeObservation[]> {
    const rows = await this.dataSource.getRepository(NodeStateEntity).findBy({ clusterId });
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
      reason: r.reason,
    }));
  }

  async save(clusterId: string, observations: NodeObservation[]): Promise<void> {
    if (observations.length === 0) return;
    await this.dataSource.getRepository(NodeStateEntity).upsert(
      observations.map((o) => ({
        nodeId: o.nodeId,
        clusterId,
        observedAt: o.observedAt,
        lastOkAt: o.lastOkAt,
        uptimeMs: o.uptimeMs,
        reachable: o.reachable,
        active: o.active,
        backup: o.backup,
        replicaSync: o.replicaSync,
        role: o.role,
        brokerNodeId: o.brokerNodeId,
        version: o.version,
        reason: o.reason,
      })),
      ['nodeId'],
    );
  }
}
