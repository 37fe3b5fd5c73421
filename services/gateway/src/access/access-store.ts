import type { ApiToken, CreateGrantRequest, Grant, Role, User } from '@artemis-studio/contracts';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../domain-error';
import { DATABASE_WAIT_MS } from '../gateway.config';
import type { RoleGrant } from '@artemis-studio/contracts';

/** A query runner: the data source, or a transaction's manager so a change commits with its audit row. */
export type Sql = Pick<DataSource | EntityManager, 'query'>;

export interface UserRow {
  id: string;
  username: string;
  kind: 'local' | 'oidc' | 'service';
  passwordHash: string | null;
  groups: string[];
  disabled: boolean;
}

export interface SessionRow {
  user: UserRow;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

export interface TokenRow {
  id: string;
  owner: UserRow;
  role: Role;
  clusters: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const USER_COLUMNS = `u.id, u.username, u.kind, u.password_hash, u.groups, u.disabled`;
const toUser = (r: Record<string, unknown>): UserRow => ({
  id: r.id as string,
  username: r.username as string,
  kind: r.kind as UserRow['kind'],
  passwordHash: (r.password_hash as string | null) ?? null,
  groups: (r.groups as string[]) ?? [],
  disabled: r.disabled as boolean,
});

const iso = (d: unknown): string | null => (d ? new Date(d as string).toISOString() : null);

/**
 * Users, grants, sessions and API tokens in PostgreSQL: any replica answers for any of them, and a
 * revocation is seen by every replica at its next look.
 */
@Injectable()
export class AccessStore {
  constructor(private readonly database: DatabaseService) {}

  db(): Promise<DataSource> {
    return this.database.readyWithin(DATABASE_WAIT_MS);
  }

  whenReady(): Promise<DataSource> {
    return this.database.whenReady();
  }

  async userByName(username: string): Promise<UserRow | null> {
    const rows = await (
      await this.db()
    ).query(`SELECT ${USER_COLUMNS} FROM auth_user u WHERE u.username = $1`, [username]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async userById(id: string, sql?: Sql): Promise<UserRow | null> {
    const rows = await (sql ?? (await this.db())).query(
      `SELECT ${USER_COLUMNS} FROM auth_user u WHERE u.id = $1`,
      [id],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** Creates the user, or says the name is taken (whichever replica or request got there first). */
  async createUser(
    sql: Sql,
    user: { username: string; kind: UserRow['kind']; passwordHash: string | null; groups?: string[] },
  ): Promise<UserRow> {
    try {
      const rows = await sql.query(
        `INSERT INTO auth_user AS u (username, kind, password_hash, groups) VALUES ($1, $2, $3, $4)
         RETURNING ${USER_COLUMNS}`,
        [user.username, user.kind, user.passwordHash, user.groups ?? []],
      );
      return toUser(rows[0]);
    } catch (err) {
      if ((err as { constraint?: string }).constraint === 'auth_user_username_unique')
        throw new DomainError('conflict', 'USERNAME_TAKEN', `a user named '${user.username}' already exists`);
      throw err;
    }
  }

  /**
   * The first admin, only while no user exists at all: two replicas starting together create one
   * (the advisory lock orders them; the second finds a user and does nothing).
   */
  async createFirstAdmin(passwordHash: string): Promise<boolean> {
    return (await this.db()).transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('artemis-studio.first-admin'))`);
      const [{ count }] = await tx.query(`SELECT count(*)::int AS count FROM auth_user`);
      if (count > 0) return false;
      const admin = await this.createUser(tx, { username: 'admin', kind: 'local', passwordHash });
      await this.createGrant(tx, { subjectKind: 'user', subject: admin.id, role: 'admin', clusters: '*' });
      return true;
    });
  }

  /** An OIDC user is created at first sign-in and keeps the groups of the last one. */
  async upsertOidcUser(username: string, groups: string[]): Promise<UserRow> {
    const rows = await (
      await this.db()
    ).query(
      `INSERT INTO auth_user AS u (username, kind, groups, last_sign_in_at) VALUES ($1, 'oidc', $2, now())
       ON CONFLICT (username) DO UPDATE SET groups = EXCLUDED.groups, last_sign_in_at = now()
       RETURNING ${USER_COLUMNS}`,
      [username, groups],
    );
    return toUser(rows[0]);
  }

  async markSignedIn(userId: string): Promise<void> {
    await (await this.db()).query(`UPDATE auth_user SET last_sign_in_at = now() WHERE id = $1`, [userId]);
  }

  async listUsers(): Promise<User[]> {
    const rows = await (
      await this.db()
    ).query(
      `SELECT id, username, kind, groups, disabled, created_at, last_sign_in_at FROM auth_user ORDER BY username`,
    );
    return rows.map((r: Record<string, unknown>) => ({
      id: r.id,
      username: r.username,
      kind: r.kind,
      groups: r.groups,
      disabled: r.disabled,
      createdAt: iso(r.created_at)!,
      lastSignInAt: iso(r.last_sign_in_at),
    }));
  }

  async updateUser(
    sql: Sql,
    id: string,
    change: { disabled?: boolean; passwordHash?: string },
  ): Promise<void> {
    const [, affected] = await sql.query(
      `UPDATE auth_user SET disabled = coalesce($2, disabled), password_hash = coalesce($3, password_hash)
       WHERE id = $1`,
      [id, change.disabled ?? null, change.passwordHash ?? null],
    );
    if (!affected) throw userNotFound(id);
    // Disabling someone, or changing their password, ends every session they hold.
    await sql.query(`UPDATE auth_session SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [
      id,
    ]);
  }

  async deleteUser(sql: Sql, id: string): Promise<void> {
    const [, affected] = await sql.query(`DELETE FROM auth_user WHERE id = $1`, [id]);
    if (!affected) throw userNotFound(id);
    await sql.query(`DELETE FROM auth_grant WHERE subject_kind = 'user' AND subject = $1`, [id]);
  }

  /** Grants to the user and to any of its groups. */
  async grantsOf(user: Pick<UserRow, 'id' | 'groups'>): Promise<RoleGrant[]> {
    return (await this.db()).query(
      `SELECT role, clusters FROM auth_grant
       WHERE (subject_kind = 'user' AND subject = $1) OR (subject_kind = 'group' AND subject = ANY($2))`,
      [user.id, user.groups],
    );
  }

  async listGrants(): Promise<Grant[]> {
    const rows = await (
      await this.db()
    ).query(
      `SELECT id, subject_kind, subject, role, clusters, created_at FROM auth_grant ORDER BY subject_kind, subject, clusters`,
    );
    return rows.map(toGrant);
  }

  async createGrant(sql: Sql, grant: CreateGrantRequest): Promise<Grant> {
    const rows = await sql.query(
      `INSERT INTO auth_grant (subject_kind, subject, role, clusters) VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT auth_grant_unique DO UPDATE SET role = EXCLUDED.role
       RETURNING id, subject_kind, subject, role, clusters, created_at`,
      [grant.subjectKind, grant.subject, grant.role, grant.clusters],
    );
    return toGrant(rows[0]);
  }

  async deleteGrant(sql: Sql, id: string): Promise<Grant> {
    const rows = await sql.query(
      `DELETE FROM auth_grant WHERE id = $1 RETURNING id, subject_kind, subject, role, clusters, created_at`,
      [id],
    );
    // pg returns [rows, count] for DELETE … RETURNING through TypeORM's query().
    const deleted = (Array.isArray(rows[0]) ? rows[0] : rows)[0];
    if (!deleted) throw new DomainError('not-found', 'GRANT_NOT_FOUND', `no grant ${id}`);
    return toGrant(deleted);
  }

  /** Administrators left if this grant went: the last one is never removed (nobody could add another). */
  async administratorsBesides(grantId: string | null, userId: string | null): Promise<number> {
    const [{ count }] = await (
      await this.db()
    ).query(
      `SELECT count(*)::int AS count FROM auth_grant g
       JOIN auth_user u ON g.subject_kind = 'user' AND u.id::text = g.subject AND NOT u.disabled
       WHERE g.role = 'admin' AND g.clusters = '*' AND ($1::uuid IS NULL OR g.id <> $1) AND ($2::uuid IS NULL OR u.id <> $2)`,
      [grantId, userId],
    );
    return count;
  }

  async createSession(digest: Buffer, userId: string, maxMs: number, address: string | null): Promise<void> {
    await (
      await this.db()
    ).query(
      `INSERT INTO auth_session (id_digest, user_id, expires_at, address)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond', $4)`,
      [digest, userId, maxMs, address],
    );
  }

  async session(digest: Buffer): Promise<SessionRow | null> {
    const rows = await (
      await this.db()
    ).query(
      `SELECT ${USER_COLUMNS}, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at
       FROM auth_session s JOIN auth_user u ON u.id = s.user_id WHERE s.id_digest = $1`,
      [digest],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      user: toUser(r),
      createdAt: new Date(r.created_at),
      lastSeenAt: new Date(r.last_seen_at),
      expiresAt: new Date(r.expires_at),
      revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
    };
  }

  async touchSession(digest: Buffer): Promise<void> {
    await (
      await this.db()
    ).query(`UPDATE auth_session SET last_seen_at = now() WHERE id_digest = $1`, [digest]);
  }

  async touchSessions(digests: Buffer[]): Promise<void> {
    if (digests.length === 0) return;
    await (
      await this.db()
    ).query(`UPDATE auth_session SET last_seen_at = now() WHERE id_digest = ANY($1)`, [digests]);
  }

  async revokeSession(digest: Buffer): Promise<void> {
    await (
      await this.db()
    ).query(`UPDATE auth_session SET revoked_at = now() WHERE id_digest = $1 AND revoked_at IS NULL`, [
      digest,
    ]);
  }

  async createToken(
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
    const rows = await sql.query(
      `INSERT INTO auth_token (secret_digest, name, owner_id, role, clusters, expires_at)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + $6::int * interval '1 day' END)
       RETURNING id`,
      [token.digest, token.name, token.ownerId, token.role, token.clusters, token.expiresInDays ?? null],
    );
    return rows[0].id;
  }

  async tokenByDigest(digest: Buffer): Promise<TokenRow | null> {
    const rows = await (
      await this.db()
    ).query(
      `SELECT ${USER_COLUMNS}, t.id AS token_id, t.role, t.clusters, t.expires_at, t.revoked_at, t.last_used_at
       FROM auth_token t JOIN auth_user u ON u.id = t.owner_id WHERE t.secret_digest = $1`,
      [digest],
    );
    const r = rows[0];
    if (!r) return null;
    return {
      id: r.token_id,
      owner: toUser(r),
      role: r.role,
      clusters: r.clusters,
      expiresAt: r.expires_at ? new Date(r.expires_at) : null,
      revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
      lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
    };
  }

  async touchToken(id: string): Promise<void> {
    await (await this.db()).query(`UPDATE auth_token SET last_used_at = now() WHERE id = $1`, [id]);
  }

  async listTokens(ownerId: string | null, sql?: Sql): Promise<ApiToken[]> {
    const rows = await (sql ?? (await this.db())).query(
      `SELECT t.id, t.name, t.owner_id, u.username AS owner_name, t.role, t.clusters, t.created_at,
              t.expires_at, t.last_used_at, t.revoked_at
       FROM auth_token t JOIN auth_user u ON u.id = t.owner_id
       WHERE $1::uuid IS NULL OR t.owner_id = $1 ORDER BY t.created_at DESC`,
      [ownerId],
    );
    return rows.map((r: Record<string, unknown>) => ({
      id: r.id,
      name: r.name,
      ownerId: r.owner_id,
      ownerName: r.owner_name,
      role: r.role,
      clusters: r.clusters,
      createdAt: iso(r.created_at)!,
      expiresAt: iso(r.expires_at),
      lastUsedAt: iso(r.last_used_at),
      revokedAt: iso(r.revoked_at),
    }));
  }

  async token(id: string, sql?: Sql): Promise<ApiToken> {
    const token = (await this.listTokens(null, sql)).find((t) => t.id === id);
    if (!token) throw new DomainError('not-found', 'TOKEN_NOT_FOUND', `no token ${id}`);
    return token;
  }

  async revokeToken(sql: Sql, id: string): Promise<void> {
    await sql.query(`UPDATE auth_token SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [id]);
  }

  /**
   * Of the credentials streams hold open, those no longer good: revoked, expired, idle too long,
   * or whose user was disabled or removed. One query for every stream of the replica.
   */
  async invalidCredentials(
    sessions: Buffer[],
    tokens: string[],
    idleMs: number,
  ): Promise<{ sessions: Set<string>; tokens: Set<string> }> {
    const db = await this.db();
    const goodSessions: { id_digest: Buffer }[] = sessions.length
      ? await db.query(
          `SELECT s.id_digest FROM auth_session s JOIN auth_user u ON u.id = s.user_id
           WHERE s.id_digest = ANY($1) AND s.revoked_at IS NULL AND s.expires_at > now()
             AND s.last_seen_at > now() - $2 * interval '1 millisecond' AND NOT u.disabled`,
          [sessions, idleMs],
        )
      : [];
    const goodTokens: { id: string }[] = tokens.length
      ? await db.query(
          `SELECT t.id FROM auth_token t JOIN auth_user u ON u.id = t.owner_id
           WHERE t.id = ANY($1::uuid[]) AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
             AND NOT u.disabled`,
          [tokens],
        )
      : [];
    const good = new Set(goodSessions.map((s) => s.id_digest.toString('hex')));
    const goodTokenIds = new Set(goodTokens.map((t) => t.id));
    return {
      sessions: new Set(sessions.map((d) => d.toString('hex')).filter((d) => !good.has(d))),
      tokens: new Set(tokens.filter((t) => !goodTokenIds.has(t))),
    };
  }
}

const userNotFound = (id: string) => new DomainError('not-found', 'USER_NOT_FOUND', `no user ${id}`);

function toGrant(r: Record<string, unknown>): Grant {
  return {
    id: r.id as string,
    subjectKind: r.subject_kind as Grant['subjectKind'],
    subject: r.subject as string,
    role: r.role as Role,
    clusters: r.clusters as string,
    createdAt: iso(r.created_at)!,
  };
}
