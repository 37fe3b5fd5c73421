import type { ApiToken, Role } from '@artemis-studio/contracts';
import { changeOf, firstRow, isoOrNull, rowsOf, type Sql } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';
import { toUser, USER_COLUMNS, type UserRecord, type UserRow } from './user.repository';

export interface TokenRow {
  id: string;
  owner: UserRow;
  role: Role;
  clusters: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

interface TokenOwnerRecord extends UserRecord {
  token_id: string;
  role: Role;
  clusters: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

interface TokenRecord {
  id: string;
  name: string;
  owner_id: string;
  owner_name: string;
  role: Role;
  clusters: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** `auth_token`: API tokens, by the digest of their secret (the secret itself is never stored). */
@Injectable()
export class TokenRepository {
  constructor(private readonly database: DatabaseService) {}

  async create(
    sql: Sql,
    token: {
      digest: Buffer;
      name: string;
      ownerId: string;
      role: Role;
      clusters: string;
      expiresInDays?: number;
    },
  ): Promise<string> {
    const [row] = await rowsOf<{ id: string }>(
      sql,
      `INSERT INTO auth_token (secret_digest, name, owner_id, role, clusters, expires_at)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + $6::int * interval '1 day' END)
       RETURNING id`,
      [token.digest, token.name, token.ownerId, token.role, token.clusters, token.expiresInDays ?? null],
    );
    return row.id;
  }

  async byDigest(digest: Buffer): Promise<TokenRow | null> {
    const r = await firstRow<TokenOwnerRecord>(
      await this.database.forRequest(),
      `SELECT ${USER_COLUMNS}, t.id AS token_id, t.role, t.clusters, t.expires_at, t.revoked_at, t.last_used_at
       FROM auth_token t JOIN auth_user u ON u.id = t.owner_id WHERE t.secret_digest = $1`,
      [digest],
    );
    if (!r) return null;
    return {
      id: r.token_id,
      owner: toUser(r),
      role: r.role,
      clusters: r.clusters,
      expiresAt: r.expires_at,
      revokedAt: r.revoked_at,
      lastUsedAt: r.last_used_at,
    };
  }

  async touch(id: string): Promise<void> {
    await changeOf(
      await this.database.forRequest(),
      `UPDATE auth_token SET last_used_at = now() WHERE id = $1`,
      [id],
    );
  }

  /** Every token, or one owner's, newest first. */
  async list(ownerId: string | null): Promise<ApiToken[]> {
    return this.select(await this.database.forRequest(), '$1::uuid IS NULL OR t.owner_id = $1', ownerId);
  }

  async one(id: string, sql?: Sql): Promise<ApiToken> {
    const [token] = await this.select(sql ?? (await this.database.forRequest()), 't.id = $1', id);
    if (!token) throw new DomainError('not-found', 'TOKEN_NOT_FOUND', `no token ${id}`);
    return token;
  }

  private async select(sql: Sql, condition: string, value: string | null): Promise<ApiToken[]> {
    const rows = await rowsOf<TokenRecord>(
      sql,
      `SELECT t.id, t.name, t.owner_id, u.username AS owner_name, t.role, t.clusters, t.created_at,
              t.expires_at, t.last_used_at, t.revoked_at
       FROM auth_token t JOIN auth_user u ON u.id = t.owner_id
       WHERE ${condition} ORDER BY t.created_at DESC`,
      [value],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      ownerId: r.owner_id,
      ownerName: r.owner_name,
      role: r.role,
      clusters: r.clusters,
      createdAt: r.created_at.toISOString(),
      expiresAt: isoOrNull(r.expires_at),
      lastUsedAt: isoOrNull(r.last_used_at),
      revokedAt: isoOrNull(r.revoked_at),
    }));
  }

  async revoke(sql: Sql, id: string): Promise<void> {
    await changeOf(sql, `UPDATE auth_token SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [
      id,
    ]);
  }

  /** Of these tokens, the ids of those still good: not revoked or expired, owner enabled. */
  async stillGood(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await rowsOf<{ id: string }>(
      await this.database.forRequest(),
      `SELECT t.id FROM auth_token t JOIN auth_user u ON u.id = t.owner_id
       WHERE t.id = ANY($1::uuid[]) AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
         AND NOT u.disabled`,
      [ids],
    );
    return new Set(rows.map((t) => t.id));
  }
}
