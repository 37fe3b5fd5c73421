import { healthOf, type Topology } from '@artemis-studio/contracts';
import { ClusterNodeEntity, NodeStateEntity } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';

/** A cluster's topology as the scraper last observed it (node_state), node by node. */
@Injectable()
export class TopologyQueries {
  constructor(private readonly database: DatabaseService) {}

  async of(clusterId: string): Promise<Topology> {
    const db = await this.database.forRequest();
    const nodes = await db
      .getRepository(ClusterNodeEntity)
      .find({ where: { clusterId }, order: { position: 'ASC' } });
    const states = new Map(
      (await db.getRepository(NodeStateEntity).findBy({ clusterId })).map((s) => [s.nodeId, s]),
    );
    const observed = nodes.map((node) => {
      const s = states.get(node.id);
      return {
        name: node.name,
        reachable: s?.reachable ?? false,
        role: s?.role ?? ('unknown' as const),
        brokerNodeId: s?.brokerNodeId ?? null,
        version: s?.version ?? null,
        uptimeMs: s?.uptimeMs ?? null,
        connections: s?.connectionCount ?? null,
        replicaSync: s?.replicaSync ?? null,
        storage: {
          diskUsage: s?.diskUsage ?? null,
          diskLimit: s?.diskLimit ?? null,
          memoryBytes: s?.memoryBytes ?? null,
          memoryLimitBytes: s?.memoryLimitBytes ?? null,
        },
        reason: s ? s.reason : 'not observed yet',
        observedAt: s?.observedAt.toISOString() ?? null,
      };
    });
    const seen = nodes.filter((n) => states.has(n.id)).map((n) => states.get(n.id)!);
    return { clusterId, health: seen.length === nodes.length ? healthOf(seen) : 'UNKNOWN', nodes: observed };
  }
}
