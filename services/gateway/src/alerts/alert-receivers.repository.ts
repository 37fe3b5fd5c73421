import type { CreateReceiverRequest, Receiver, UpdateReceiverRequest } from '@artemis-studio/contracts';
import { firstChanged, firstRow, rowsOf, SecretVault } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuditNote } from '../audit/audit-note';
import { DomainError, uniquely } from '../domain-error';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

interface ReceiverRow {
  id: string;
  cluster_id: string;
  name: string;
  kind: Receiver['kind'];
  url: string;
  min_severity: Receiver['minSeverity'];
  has_secret: boolean;
  enabled: boolean;
}

const RECEIVER_COLUMNS = `id, cluster_id, name, kind, url, min_severity, sealed_secret IS NOT NULL AS has_secret, enabled`;

const receiverOf = (r: ReceiverRow): Receiver => ({
  id: r.id,
  clusterId: r.cluster_id,
  name: r.name,
  kind: r.kind,
  url: r.url,
  minSeverity: r.min_severity,
  hasSecret: r.has_secret,
  enabled: r.enabled,
});

/** A second receiver of the same name on a cluster. */
const named = <T>(name: string, write: () => Promise<T>) =>
  uniquely(
    write,
    'alert_receiver_name',
    () =>
      new DomainError(
        'conflict',
        'RECEIVER_NAME_TAKEN',
        `this cluster has a receiver named '${name}' already`,
      ),
  );
const receiverNotFound = (id: string) =>
  new DomainError('not-found', 'RECEIVER_NOT_FOUND', `no alert receiver ${id} on this cluster`);

/**
 * Where a cluster's alerts go. A webhook's signing secret is sealed as broker credentials are
 * (bound to the receiver's id) and never read back out: the owner opens it to sign.
 */
@Injectable()
export class AlertReceiversRepository {
  private readonly vault: SecretVault;

  constructor(
    private readonly database: DatabaseService,
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
  ) {
    this.vault = SecretVault.fromBase64(config.secretKey);
  }

  async list(clusterId: string): Promise<Receiver[]> {
    const rows = await rowsOf<ReceiverRow>(
      await this.database.forRequest(),
      `SELECT ${RECEIVER_COLUMNS} FROM alert_receiver WHERE cluster_id = $1 ORDER BY name`,
      [clusterId],
    );
    return rows.map(receiverOf);
  }

  async create(clusterId: string, request: CreateReceiverRequest, note: AuditNote): Promise<Receiver> {
    const id = randomUUID();
    return named(request.name, async () =>
      (await this.database.forRequest()).transaction(async (tx) => {
        const row = await firstRow<ReceiverRow>(
          tx,
          `INSERT INTO alert_receiver (id, cluster_id, name, kind, url, min_severity, sealed_secret, enabled)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${RECEIVER_COLUMNS}`,
          [
            id,
            clusterId,
            request.name,
            request.kind,
            request.url,
            request.minSeverity,
            this.sealed(id, request.secret),
            request.enabled,
          ],
        );
        await note.within(tx, { target: request.name, detail: { receiverId: id, kind: request.kind } });
        return receiverOf(row!);
      }),
    );
  }

  async update(
    clusterId: string,
    id: string,
    request: UpdateReceiverRequest,
    note: AuditNote,
  ): Promise<Receiver> {
    return named(request.name, async () =>
      (await this.database.forRequest()).transaction(async (tx) => {
        const row = await firstChanged<ReceiverRow>(
          tx,
          `UPDATE alert_receiver SET name = $3, url = $4, min_severity = $5, enabled = $6,
                  sealed_secret = COALESCE($7, sealed_secret), updated_at = now()
            WHERE cluster_id = $1 AND id = $2 RETURNING ${RECEIVER_COLUMNS}`,
          [
            clusterId,
            id,
            request.name,
            request.url,
            request.minSeverity,
            request.enabled,
            this.sealed(id, request.secret),
          ],
        );
        if (!row) throw receiverNotFound(id);
        await note.within(tx, {
          target: request.name,
          detail: { receiverId: id, secretChanged: request.secret !== undefined, enabled: request.enabled },
        });
        return receiverOf(row);
      }),
    );
  }

  /** Its owed deliveries go with it (nothing is left to send them to). */
  async delete(clusterId: string, id: string, note: AuditNote): Promise<void> {
    await (
      await this.database.forRequest()
    ).transaction(async (tx) => {
      const row = await firstChanged<{ name: string }>(
        tx,
        `DELETE FROM alert_receiver WHERE cluster_id = $1 AND id = $2 RETURNING name`,
        [clusterId, id],
      );
      if (!row) throw receiverNotFound(id);
      await note.within(tx, { target: row.name, detail: { receiverId: id } });
    });
  }

  private sealed(id: string, secret: string | undefined): Buffer | null {
    return secret === undefined ? null : this.vault.seal(secret, id, 'RECEIVER');
  }
}
