import { CredentialSchema, type Credential } from '@artemis-studio/contracts';
import type { DataSource } from 'typeorm';
import { ClusterCredentialEntity, ClusterEntity, type CredentialKind } from './entities';
import { SecretVault, SecretVaultError } from './secret-vault';

export interface ClusterTargetNode {
  id: string;
  name: string;
  jolokiaUrl: string;
  amqpUrl: string | null;
}

/** A registered cluster as the services that reach brokers need it, credentials opened. */
export interface ClusterTarget {
  id: string;
  name: string;
  /** Changes whenever the registration changes: a poller restarts with the new one. */
  revision: string;
  jolokiaOrigin: string | null;
  nodes: ClusterTargetNode[];
  credentials: Partial<Record<CredentialKind, Credential>>;
  /** Why a stored credential could not be opened (wrong vault key): stated on every node. */
  credentialError: string | null;
  /** Queues last observed on it, all nodes together: its share of a replica's work (issue 32). */
  queueCount?: number;
  /** Studio keeps its ring of notifications on the brokers (ADR-0015); a change restarts nothing. */
  notificationRing?: boolean;
}

/** Reads the cluster registry (written by the gateway) for the scraper and the notifier. */
export class ClusterTargetQueries {
  constructor(
    private readonly dataSource: DataSource,
    private readonly vault: SecretVault,
  ) {}

  async list(): Promise<ClusterTarget[]> {
    const [clusters, credentials, queueCounts] = await Promise.all([
      this.dataSource
        .getRepository(ClusterEntity)
        .find({ relations: { nodes: true }, order: { name: 'ASC' } }),
      this.dataSource.getRepository(ClusterCredentialEntity).find(),
      this.dataSource.query<{ cluster_id: string; queues: number }[]>(
        'SELECT cluster_id, count(*)::int AS queues FROM queue_snapshot GROUP BY cluster_id',
      ),
    ]);
    const queuesOf = new Map(queueCounts.map((r) => [r.cluster_id, r.queues]));
    return clusters.map((cluster) => {
      const opened: Partial<Record<CredentialKind, Credential>> = {};
      let credentialError: string | null = null;
      // What the pollers and subscriptions use, and only that: a change elsewhere in the registration
      // (read-only mode) must not restart them, or actions fail until the next poll sees the nodes.
      let revision = JSON.stringify([
        cluster.name,
        cluster.jolokiaOrigin,
        [...cluster.nodes]
          .sort((a, b) => a.position - b.position)
          .map((n) => [n.id, n.name, n.jolokiaUrl, n.amqpUrl]),
      ]);
      for (const row of credentials.filter((c) => c.clusterId === cluster.id)) {
        revision += `|${row.kind}@${row.updatedAt.toISOString()}`;
        try {
          opened[row.kind] = CredentialSchema.parse(
            JSON.parse(this.vault.open(row.sealed, cluster.id, row.kind)),
          );
        } catch (err) {
          credentialError =
            err instanceof SecretVaultError ? err.message : `stored ${row.kind} credential is unreadable`;
        }
      }
      return {
        id: cluster.id,
        name: cluster.name,
        revision,
        jolokiaOrigin: cluster.jolokiaOrigin,
        nodes: [...cluster.nodes]
          .sort((a, b) => a.position - b.position)
          .map((n) => ({ id: n.id, name: n.name, jolokiaUrl: n.jolokiaUrl, amqpUrl: n.amqpUrl })),
        credentials: opened,
        credentialError,
        queueCount: queuesOf.get(cluster.id) ?? 0,
        notificationRing: cluster.notificationRing,
      };
    });
  }
}

/** Seals a credential the way the catalog opens it. */
export function sealCredential(
  vault: SecretVault,
  clusterId: string,
  kind: CredentialKind,
  credential: Credential,
): Buffer {
  return vault.seal(JSON.stringify(credential), clusterId, kind);
}
