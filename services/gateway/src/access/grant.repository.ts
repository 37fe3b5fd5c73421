import type { CreateGrantRequest, Grant, Role, RoleGrant } from '@artemis-studio/contracts';
import { changeOf, firstRow, rowsOf, type Sql } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { DomainError } from '../domain-error';
import type { UserRow } from './user.repository';

interface GrantRecord {
  id: string;
  subject_kind: Grant['subjectKind'];
  subject: string;
  role: Role;
  clusters: string;
  created_at: Date;
}

const GRANT_COLUMNS = `id, subject_kind, subject, role, clusters, created_at`;

const toGrant = (r: GrantRecord): Grant => ({
  id: r.id,
  subjectKind: r.subject_kind,
  subject: r.subject,
  role: r.role,
  clusters: r.clusters,
  createdAt: r.created_at.toISOString(),
});

/** `auth_grant`: which role a user or an identity-provider group holds on which clusters. */
@Injectable()
export class GrantRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Grants to the user and to any of its groups. */
  async of(user: Pick<UserRow, 'id' | 'groups'>): Promise<RoleGrant[]> {
    return rowsOf<RoleGrant>(
      await this.database.forRequest(),
      `SELECT role, clusters FROM auth_grant
       WHERE (subject_kind = 'user' AND subject = $1) OR (subject_kind = 'group' AND subject = ANY($2))`,
      [user.id, user.groups],
    );
  }

  async list(): Promise<Grant[]> {
    const rows = await rowsOf<GrantRecord>(
      await this.database.forRequest(),
      `SELECT ${GRANT_COLUMNS} FROM auth_grant ORDER BY subject_kind, subject, clusters`,
    );
    return rows.map(toGrant);
  }

  async create(sql: Sql, grant: CreateGrantRequest): Promise<Grant> {
    const [row] = await rowsOf<GrantRecord>(
      sql,
      `INSERT INTO auth_grant (subject_kind, subject, role, clusters) VALUES ($1, $2, $3, $4)
       ON CONFLICT ON CONSTRAINT auth_grant_unique DO UPDATE SET role = EXCLUDED.role
       RETURNING ${GRANT_COLUMNS}`,
      [grant.subjectKind, grant.subject, grant.role, grant.clusters],
    );
    return toGrant(row);
  }

  async delete(sql: Sql, id: string): Promise<Grant> {
    const {
      rows: [deleted],
    } = await changeOf<GrantRecord>(sql, `DELETE FROM auth_grant WHERE id = $1 RETURNING ${GRANT_COLUMNS}`, [
      id,
    ]);
    if (!deleted) throw new DomainError('not-found', 'GRANT_NOT_FOUND', `no grant ${id}`);
    return toGrant(deleted);
  }

  /** Administrators left if this grant went: the last one is never removed (nobody could add another). */
  async administratorsBesides(grantId: string | null, userId: string | null): Promise<number> {
    const row = await firstRow<{ count: number }>(
      await this.database.forRequest(),
      `SELECT count(*)::int AS count FROM auth_grant g
       JOIN auth_user u ON g.subject_kind = 'user' AND u.id::text = g.subject AND NOT u.disabled
       WHERE g.role = 'admin' AND g.clusters = '*' AND ($1::uuid IS NULL OR g.id <> $1) AND ($2::uuid IS NULL OR u.id <> $2)`,
      [grantId, userId],
    );
    return row?.count ?? 0;
  }
}
