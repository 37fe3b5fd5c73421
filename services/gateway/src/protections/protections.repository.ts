import {
  PROTECTION_SUGGESTIONS,
  type CreateProtectionRequest,
  type Protection,
  type ProtectionList,
} from '@artemis-studio/contracts';
import { firstChanged, firstRow, rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';

interface ProtectionRow {
  id: string;
  pattern: string;
  reason: string;
  created_by: string;
  created_at: Date;
}

const protectionOfRow = (r: ProtectionRow): Protection => ({
  id: r.id,
  pattern: r.pattern,
  reason: r.reason,
  createdBy: r.created_by,
  createdAt: r.created_at.toISOString(),
});

/** A cluster's protected name patterns (`protected_subject`); each change commits with its audit row. */
@Injectable()
export class ProtectionsRepository {
  constructor(private readonly database: DatabaseService) {}

  async all(clusterId: string): Promise<Protection[]> {
    const rows = await rowsOf<ProtectionRow>(
      await this.database.forRequest(),
      `SELECT id, pattern, reason, created_by, created_at FROM protected_subject
        WHERE cluster_id = $1 ORDER BY pattern`,
      [clusterId],
    );
    return rows.map(protectionOfRow);
  }

  async list(clusterId: string): Promise<ProtectionList> {
    const items = await this.all(clusterId);
    const have = new Set(items.map((p) => p.pattern));
    return {
      items,
      suggestions: PROTECTION_SUGGESTIONS.filter((s) => !have.has(s.pattern)).map((s) => ({ ...s })),
    };
  }

  async create(
    clusterId: string,
    request: CreateProtectionRequest,
    by: string,
    note: AuditNote,
  ): Promise<Protection> {
    return (await this.database.forRequest()).transaction(async (tx) => {
      const row = await firstRow<ProtectionRow>(
        tx,
        `INSERT INTO protected_subject (cluster_id, pattern, reason, created_by) VALUES ($1, $2, $3, $4)
         ON CONFLICT (cluster_id, pattern) DO NOTHING
         RETURNING id, pattern, reason, created_by, created_at`,
        [clusterId, request.pattern, request.reason, by],
      );
      if (!row)
        throw new DomainError(
          'conflict',
          'PROTECTION_EXISTS',
          `'${request.pattern}' is protected on this cluster already`,
        );
      await note.within(tx, {
        target: request.pattern,
        detail: { protectionId: row.id, reason: request.reason },
      });
      return protectionOfRow(row);
    });
  }

  /** Lifts a protection: what it covered can be deleted again, and purged by an operator. */
  async lift(clusterId: string, id: string, note: AuditNote): Promise<Protection> {
    return (await this.database.forRequest()).transaction(async (tx) => {
      const row = await firstChanged<ProtectionRow>(
        tx,
        `DELETE FROM protected_subject WHERE cluster_id = $1 AND id = $2
         RETURNING id, pattern, reason, created_by, created_at`,
        [clusterId, id],
      );
      if (!row)
        throw new DomainError('not-found', 'PROTECTION_NOT_FOUND', `no protection ${id} on this cluster`);
      await note.within(tx, { target: row.pattern, detail: { protectionId: id, reason: row.reason } });
      return protectionOfRow(row);
    });
  }
}
