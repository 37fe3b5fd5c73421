import {
  type ClusterSummary,
  type CreateClusterRequest,
  type UpdateClusterRequest,
} from '@artemis-studio/contracts';
import {
  ClusterCredentialEntity,
  ClusterEntity,
  ClusterNodeEntity,
  firstRow,
  SecretVault,
  sealCredential,
  type CredentialKind,
} from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import type { AuditNote } from '../audit/audit-note';
import { clusterNotFound, DomainError } from '../domain-error';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

const KINDS: Record<'jolokia' | 'amqp', CredentialKind> = { jolokia: 'JOLOKIA', amqp: 'AMQP' };

/**
 * `cluster`, `cluster_node` and `cluster_credential`: registrations. A registration is written in one transaction (a reader never sees a
 * cluster without its credentials); credentials are sealed with the vault and never leave it.
 */
@Injectable()
export class ClusterRepository {
  private readonly vault: SecretVault;

  constructor(
    private readonly database: DatabaseService,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.vault = SecretVault.fromBase64(config.secretKey);
  }

  /** The change and its audit row commit together (`note.within`), or neither does. */
  async create(request: CreateClusterRequest, note: AuditNote): Promise<ClusterSummary> {
    const db = await this.database.forRequest();
    const id = await this.unique(request.name, () =>
      db.transaction(async (tx) => {
        const cluster = await tx.getRepository(ClusterEntity).save({
          name: request.name,
          jolokiaOrigin: request.jolokiaOrigin ?? null,
          readOnly: request.readOnly ?? false,
          notificationRing: request.notificationRing ?? true,
          messageBodies: request.messageBodies ?? 'operator',
          masking: request.masking ?? { properties: [], bodyPaths: [] },
          nodes: nodeRows(request.nodes),
        });
        await this.writeCredentials(tx, cluster.id, request.credentials);
        await note.within(tx, {
          clusterId: cluster.id,
          target: request.name,
          detail: describeChange(request),
        });
        return cluster.id;
      }),
    );
    return (await this.summary(id))!;
  }

  async list(): Promise<ClusterSummary[]> {
    const db = await this.database.forRequest();
    const clusters = await db
      .getRepository(ClusterEntity)
      .find({ relations: { nodes: true }, order: { name: 'ASC' } });
    const credentials = await db
      .getRepository(ClusterCredentialEntity)
      .find({ select: { clusterId: true, kind: true } });
    return clusters.map((c) =>
      toSummary(
        c,
        credentials.filter((k) => k.clusterId === c.id).map((k) => k.kind),
      ),
    );
  }

  async summary(id: string): Promise<ClusterSummary | null> {
    const db = await this.database.forRequest();
    const cluster = await db
      .getRepository(ClusterEntity)
      .findOne({ where: { id }, relations: { nodes: true } });
    if (!cluster) return null;
    const kinds = await db
      .getRepository(ClusterCredentialEntity)
      .find({ where: { clusterId: id }, select: { kind: true } });
    return toSummary(
      cluster,
      kinds.map((k) => k.kind),
    );
  }

  async update(id: string, request: UpdateClusterRequest, note: AuditNote): Promise<ClusterSummary> {
    const db = await this.database.forRequest();
    await this.unique(request.name ?? '', () =>
      db.transaction(async (tx) => {
        const cluster = await tx
          .getRepository(ClusterEntity)
          .findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
        if (!cluster) throw clusterNotFound(id);
        if (request.name !== undefined) cluster.name = request.name;
        if (request.jolokiaOrigin !== undefined) cluster.jolokiaOrigin = request.jolokiaOrigin;
        if (request.readOnly !== undefined) cluster.readOnly = request.readOnly;
        if (request.notificationRing !== undefined) cluster.notificationRing = request.notificationRing;
        if (request.messageBodies !== undefined) cluster.messageBodies = request.messageBodies;
        if (request.masking !== undefined) cluster.masking = request.masking;
        cluster.updatedAt = new Date();
        await tx.getRepository(ClusterEntity).save(cluster);
        if (request.nodes) {
          await tx.getRepository(ClusterNodeEntity).delete({ clusterId: id });
          await tx
            .getRepository(ClusterNodeEntity)
            .save(nodeRows(request.nodes).map((n) => ({ ...n, clusterId: id })));
        }
        await this.writeCredentials(tx, id, request.credentials);
        await note.within(tx, { target: cluster.name, detail: describeChange(request) });
      }),
    );
    return (await this.summary(id))!;
  }

  async delete(id: string, note: AuditNote): Promise<void> {
    await (
      await this.database.forRequest()
    ).transaction(async (tx) => {
      const cluster = await tx.getRepository(ClusterEntity).findOneBy({ id });
      if (!cluster) throw clusterNotFound(id);
      await tx.getRepository(ClusterEntity).delete({ id });
      await note.within(tx, { target: cluster.name });
    });
  }

  /** A registered cluster's name (what grants match), or null when there is no such cluster. */
  async nameOf(id: string): Promise<string | null> {
    // Plain SQL: the guard asks on every cluster-scoped request, and TypeORM's query building
    // was a fifteenth of a stream reconnect's CPU in the gateway.
    const row = await firstRow<{ name: string }>(
      await this.database.forRequest(),
      `SELECT name FROM cluster WHERE id = $1`,
      [id],
    );
    return row?.name ?? null;
  }

  /**
   * Every cluster's id and name, no more: what a role check over all clusters needs (the header's
   * alert count asks every 15 s per open console; the full list reads every node and credential).
   */
  async names(): Promise<{ id: string; name: string }[]> {
    return (await this.database.forRequest())
      .getRepository(ClusterEntity)
      .find({ select: { id: true, name: true }, order: { name: 'ASC' } });
  }

  /** Who may read the cluster's messages and what is masked; a cluster not registered is not found. */
  async messageAccess(id: string): Promise<Pick<ClusterEntity, 'id' | 'name' | 'messageBodies' | 'masking'>> {
    const cluster = await (
      await this.database.forRequest()
    )
      .getRepository(ClusterEntity)
      .findOne({ where: { id }, select: { id: true, name: true, messageBodies: true, masking: true } });
    if (!cluster) throw clusterNotFound(id);
    return cluster;
  }

  /** Whether actions on the cluster's brokers are refused; a cluster not registered is not found. */
  async readOnly(id: string): Promise<boolean> {
    const cluster = await (
      await this.database.forRequest()
    )
      .getRepository(ClusterEntity)
      .findOne({ where: { id }, select: { id: true, readOnly: true } });
    if (!cluster) throw clusterNotFound(id);
    return cluster.readOnly;
  }

  /** Which of `ids` are still registered. */
  async registered(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await (
      await this.database.forRequest()
    )
      .getRepository(ClusterEntity)
      .find({ select: { id: true }, where: { id: In(ids) } });
    return new Set(rows.map((r) => r.id));
  }

  /** Seals each credential given; a kind set to null is removed. */
  private async writeCredentials(
    tx: EntityManager,
    clusterId: string,
    credentials: UpdateClusterRequest['credentials'] | CreateClusterRequest['credentials'],
  ): Promise<void> {
    for (const [key, kind] of Object.entries(KINDS) as ['jolokia' | 'amqp', CredentialKind][]) {
      const credential = credentials?.[key];
      if (credential === null) await tx.getRepository(ClusterCredentialEntity).delete({ clusterId, kind });
      else if (credential) await this.seal(tx, clusterId, kind, credential);
    }
  }

  private async seal(
    tx: EntityManager,
    clusterId: string,
    kind: CredentialKind,
    credential: { username: string; password: string },
  ) {
    await tx.getRepository(ClusterCredentialEntity).save({
      clusterId,
      kind,
      sealed: sealCredential(this.vault, clusterId, kind, credential),
      updatedAt: new Date(),
    });
  }

  /** A name clash is a conflict, whichever replica or request won the race (the unique constraint decides). */
  private async unique<T>(name: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (
        (err as { constraint?: string }).constraint === 'cluster_name_unique' ||
        (err as { driverError?: { constraint?: string } }).driverError?.constraint === 'cluster_name_unique'
      ) {
        throw new DomainError('conflict', 'CLUSTER_NAME_TAKEN', `a cluster named '${name}' already exists`);
      }
      if (
        (err as { driverError?: { constraint?: string } }).driverError?.constraint ===
        'cluster_node_name_unique'
      ) {
        throw new DomainError('invalid', 'VALIDATION_FAILED', 'node names must be unique');
      }
      throw err;
    }
  }
}

/** What an audit row says of a registration change: which parts changed, never a credential. */
function describeChange(request: CreateClusterRequest | UpdateClusterRequest): Record<string, unknown> {
  return {
    changed: Object.keys(request),
    ...(request.nodes ? { nodes: request.nodes.map((n) => n.name) } : {}),
    ...(request.credentials
      ? {
          credentials: Object.fromEntries(
            Object.entries(request.credentials).map(([kind, c]) => [kind, c === null ? 'removed' : 'set']),
          ),
        }
      : {}),
  };
}

function nodeRows(nodes: CreateClusterRequest['nodes']) {
  return nodes.map((n, position) => ({
    name: n.name,
    jolokiaUrl: n.jolokiaUrl,
    amqpUrl: n.amqpUrl ?? null,
    position,
  }));
}

function toSummary(cluster: ClusterEntity, kinds: CredentialKind[]): ClusterSummary {
  return {
    id: cluster.id,
    name: cluster.name,
    nodes: [...cluster.nodes]
      .sort((a, b) => a.position - b.position)
      .map((n) => ({ id: n.id, name: n.name, jolokiaUrl: n.jolokiaUrl, amqpUrl: n.amqpUrl })),
    jolokiaOrigin: cluster.jolokiaOrigin,
    credentials: { jolokia: kinds.includes('JOLOKIA'), amqp: kinds.includes('AMQP') },
    readOnly: cluster.readOnly,
    notificationRing: cluster.notificationRing,
    messageBodies: cluster.messageBodies,
    masking: cluster.masking,
    createdAt: cluster.createdAt.toISOString(),
    updatedAt: cluster.updatedAt.toISOString(),
  };
}
