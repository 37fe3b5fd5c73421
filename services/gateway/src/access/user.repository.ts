import type { User } from '@artemis-studio/contracts';
import { changeOf, firstRow, isoOrNull, rowsOf, type Sql } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';

export interface UserRow {
  id: string;
  username: string;
  kind: 'local' | 'oidc' | 'service';
  passwordHash: string | null;
  groups: string[];
  disabled: boolean;
}

/** `auth_user` as selected by USER_COLUMNS, alone or joined to a session or a token. */
export interface UserRecord {
  id: string;
  username: string;
  kind: UserRow['kind'];
  password_hash: string | null;
  groups: string[] | null;
  disabled: boolean;
}

export const USER_COLUMNS = `u.id, u.username, u.kind, u.password_hash, u.groups, u.disabled`;

export const toUser = (r: UserRecord): UserRow => ({
  id: r.id,
  username: r.username,
  kind: r.kind,
  passwordHash: r.password_hash ?? null,
  groups: r.groups ?? [],
  disabled: r.disabled,
});

interface UserListRecord {
  id: string;
  username: string;
  kind: User['kind'];
  groups: string[];
  disabled: boolean;
  created_at: Date;
  last_sign_in_at: Date | null;
}

/** `auth_user`: local users, identity-provider users and service accounts. */
@Injectable()
export class UserRepository {
  constructor(private readonly database: DatabaseService) {}

  async byName(username: string): Promise<UserRow | null> {
    const row = await firstRow<UserRecord>(
      await this.database.forRequest(),
      `SELECT ${USER_COLUMNS} FROM auth_user u WHERE u.username = $1`,
      [username],
    );
    return row && toUser(row);
  }

  async byId(id: string, sql?: Sql): Promise<UserRow | null> {
    const row = await firstRow<UserRecord>(
      sql ?? (await this.database.forRequest()),
      `SELECT ${USER_COLUMNS} FROM auth_user u WHERE u.id = $1`,
      [id],
    );
    return row && toUser(row);
  }

  /** Creates the user, or says the name is taken (whichever replica or request got there first). */
  async create(
    sql: Sql,
    user: { username: string; kind: UserRow['kind']; passwordHash: string | null; groups?: string[] },
  ): Promise<UserRow> {
    try {
      const [row] = await rowsOf<UserRecord>(
        sql,
        `INSERT INTO auth_user AS u (username, kind, password_hash, groups) VALUES ($1, $2, $3, $4)
         RETURNING ${USER_COLUMNS}`,
        [user.username, user.kind, user.passwordHash, user.groups ?? []],
      );
      return toUser(row);
    } catch (err) {
      if ((err as { constraint?: string }).constraint === 'auth_user_username_unique')
        throw new DomainError('conflict', 'USERNAME_TAKEN', `a user named '${user.username}' already exists`);
      throw err;
    }
  }

  /** How many users there are, read in `sql` (the first admin's transaction counts them). */
  async count(sql: Sql): Promise<number> {
    const row = await firstRow<{ count: number }>(sql, `SELECT count(*)::int AS count FROM auth_user`);
    return row?.count ?? 0;
  }

  /** An OIDC user is created at first sign-in and keeps the groups of the last one. */
  async upsertOidc(username: string, groups: string[]): Promise<UserRow> {
    const [row] = await rowsOf<UserRecord>(
      await this.database.forRequest(),
      `INSERT INTO auth_user AS u (username, kind, groups, last_sign_in_at) VALUES ($1, 'oidc', $2, now())
       ON CONFLICT (username) DO UPDATE SET groups = EXCLUDED.groups, last_sign_in_at = now()
       RETURNING ${USER_COLUMNS}`,
      [username, groups],
    );
    return toUser(row);
  }

  async markSignedIn(userId: string): Promise<void> {
    await changeOf(
      await this.database.forRequest(),
      `UPDATE auth_user SET last_sign_in_at = now() WHERE id = $1`,
      [userId],
    );
  }

  async list(): Promise<User[]> {
    const rows = await rowsOf<UserListRecord>(
      await this.database.forRequest(),
      `SELECT id, username, kind, groups, disabled, created_at, last_sign_in_at FROM auth_user ORDER BY username`,
    );
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      kind: r.kind,
      groups: r.groups,
      disabled: r.disabled,
      createdAt: r.created_at.toISOString(),
      lastSignInAt: isoOrNull(r.last_sign_in_at),
    }));
  }

  async one(id: string): Promise<User> {
    const user = (await this.list()).find((u) => u.id === id);
    if (!user) throw userNotFound(id);
    return user;
  }

  /** Disabling someone, or changing their password, ends every session they hold. */
  async update(sql: Sql, id: string, change: { disabled?: boolean; passwordHash?: string }): Promise<void> {
    const { count } = await changeOf(
      sql,
      `UPDATE auth_user SET disabled = coalesce($2, disabled), password_hash = coalesce($3, password_hash)
       WHERE id = $1`,
      [id, change.disabled ?? null, change.passwordHash ?? null],
    );
    if (!count) throw userNotFound(id);
    await changeOf(
      sql,
      `UPDATE auth_session SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`,
      [id],
    );
  }

  async delete(sql: Sql, id: string): Promise<void> {
    const { count } = await changeOf(sql, `DELETE FROM auth_user WHERE id = $1`, [id]);
    if (!count) throw userNotFound(id);
    await changeOf(sql, `DELETE FROM auth_grant WHERE subject_kind = 'user' AND subject = $1`, [id]);
  }
}

const userNotFound = (id: string) => new DomainError('not-found', 'USER_NOT_FOUND', `no user ${id}`);
