import {
  updateProblem,
  type CreateReceiverRequest,
  type EmailSettings,
  type Receiver,
  type UpdateReceiverRequest,
} from '@artemis-studio/contracts';
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
  email: EmailSettings | null;
  min_severity: Receiver['minSeverity'];
  matchers: Record<string, string>;
  has_secret: boolean;
  enabled: boolean;
}

const RECEIVER_COLUMNS = `id, cluster_id, name, kind, url, email, min_severity, matchers, sealed_secret IS NOT NULL AS has_secret, enabled`;

const receiverOf = (r: ReceiverRow): Receiver => ({
  id: r.id,
  clusterId: r.cluster_id,
  name: r.name,
  kind: r.kind,
  url: r.url,
  email: r.email,
  minSeverity: r.min_severity,
  matchers: r.matchers,
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
/** A chat webhook's URL is its credential: it is shown by its host only. */
const shownChatUrl = (webhook: string) => `${new URL(webhook).origin}/…`;

/** What a new receiver stores: the URL it shows, its secret to seal, its email settings. */
function storedOf(request: CreateReceiverRequest): {
  url: string;
  secret: string | undefined;
  email: EmailSettings | null;
} {
  switch (request.kind) {
    case 'slack':
    case 'teams':
      return { url: shownChatUrl(request.secret), secret: request.secret, email: null };
    case 'email':
      return { url: request.url, secret: request.secret, email: request.email };
    case 'webhook':
      return { url: request.url, secret: request.secret, email: null };
    default:
      return { url: request.url, secret: undefined, email: null };
  }
}

const receiverNotFound = (id: string) =>
  new DomainError('not-found', 'RECEIVER_NOT_FOUND', `no alert receiver ${id} on this cluster`);

/**
 * Where a cluster's alerts go. A secret (a webhook's signing secret, a chat webhook's URL, an SMTP
 * password) is sealed as broker credentials are (bound to the receiver's id) and never read back
 * out: the owner opens it to send.
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
    const stored = storedOf(request);
    return named(request.name, async () =>
      (await this.database.forRequest()).transaction(async (tx) => {
        const row = await firstRow<ReceiverRow>(
          tx,
          `INSERT INTO alert_receiver (id, cluster_id, name, kind, url, email, min_severity, sealed_secret, enabled, matchers)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${RECEIVER_COLUMNS}`,
          [
            id,
            clusterId,
            request.name,
            request.kind,
            stored.url,
            stored.email,
            request.minSeverity,
            this.sealed(id, stored.secret),
            request.enabled,
            JSON.stringify(request.matchers),
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
        const current = await firstRow<{ kind: Receiver['kind'] }>(
          tx,
          `SELECT kind FROM alert_receiver WHERE cluster_id = $1 AND id = $2 FOR UPDATE`,
          [clusterId, id],
        );
        if (!current) throw receiverNotFound(id);
        const problem = updateProblem(current.kind, request);
        if (problem) throw new DomainError('invalid', 'VALIDATION_FAILED', `alert receiver: ${problem}`);
        const chat = current.kind === 'slack' || current.kind === 'teams';
        const url = chat && request.secret !== undefined ? shownChatUrl(request.secret) : request.url;
        const row = await firstChanged<ReceiverRow>(
          tx,
          `UPDATE alert_receiver SET name = $3, url = COALESCE($4, url), email = COALESCE($5, email),
                  min_severity = $6, enabled = $7, sealed_secret = COALESCE($8, sealed_secret),
                  matchers = $9, updated_at = now()
            WHERE cluster_id = $1 AND id = $2 RETURNING ${RECEIVER_COLUMNS}`,
          [
            clusterId,
            id,
            request.name,
            url ?? null,
            request.email ?? null,
            request.minSeverity,
            request.enabled,
            this.sealed(id, request.secret),
            JSON.stringify(request.matchers),
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
