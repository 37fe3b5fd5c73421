import { changeOf, firstRow, rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { toUser, USER_COLUMNS, type UserRecord, type UserRow } from './user.repository';

export interface SessionRow {
  user: UserRow;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

interface SessionRecord extends UserRecord {
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

/**
 * `auth_session`, by the digest of its id (the id itself is only ever in the browser's cookie):
 * any replica answers for any session, and a revocation is seen by every replica at its next look.
 */
@Injectable()
export class SessionRepository {
  constructor(private readonly database: DatabaseService) {}

  async create(digest: Buffer, userId: string, maxMs: number, address: string | null): Promise<void> {
    await rowsOf(
      await this.database.forRequest(),
      `INSERT INTO auth_session (id_digest, user_id, expires_at, address)
       VALUES ($1, $2, now() + $3 * interval '1 millisecond', $4)`,
      [digest, userId, maxMs, address],
    );
  }

  async byDigest(digest: Buffer): Promise<SessionRow | null> {
    const r = await firstRow<SessionRecord>(
      await this.database.forRequest(),
      `SELECT ${USER_COLUMNS}, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at
       FROM auth_session s JOIN auth_user u ON u.id = s.user_id WHERE s.id_digest = $1`,
      [digest],
    );
    if (!r) return null;
    return {
      user: toUser(r),
      createdAt: r.created_at,
      lastSeenAt: r.last_seen_at,
      expiresAt: r.expires_at,
      revokedAt: r.revoked_at,
    };
  }

  /** Marks sessions as in use now (one statement for however many). */
  async touch(digests: Buffer[]): Promise<void> {
    if (digests.length === 0) return;
    await changeOf(
      await this.database.forRequest(),
      `UPDATE auth_session SET last_seen_at = now() WHERE id_digest = ANY($1)`,
      [digests],
    );
  }

  async revoke(digest: Buffer): Promise<void> {
    await changeOf(
      await this.database.forRequest(),
      `UPDATE auth_session SET revoked_at = now() WHERE id_digest = $1 AND revoked_at IS NULL`,
      [digest],
    );
  }

  /** Of these sessions, the digests (hex) of those still good: not revoked, expired or idle too long, user enabled. */
  async stillGood(digests: Buffer[], idleMs: number): Promise<Set<string>> {
    if (digests.length === 0) return new Set();
    const rows = await rowsOf<{ id_digest: Buffer }>(
      await this.database.forRequest(),
      `SELECT s.id_digest FROM auth_session s JOIN auth_user u ON u.id = s.user_id
       WHERE s.id_digest = ANY($1) AND s.revoked_at IS NULL AND s.expires_at > now()
         AND s.last_seen_at > now() - $2 * interval '1 millisecond' AND NOT u.disabled`,
      [digests, idleMs],
    );
    return new Set(rows.map((s) => s.id_digest.toString('hex')));
  }
}
