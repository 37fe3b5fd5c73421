import type { CreateSilenceRequest, Silence } from '@artemis-studio/contracts';
import { firstChanged, firstRow, isoOrNull, rowsOf } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { AuditNote } from '../audit/audit-note';
import { DomainError } from '../domain-error';
import { ruleNotFound } from './alert-rules.repository';

const silenceNotFound = (id: string) =>
  new DomainError('not-found', 'SILENCE_NOT_FOUND', `no silence ${id} on this cluster`);

interface SilenceRow {
  id: string;
  cluster_id: string;
  rule_id: string | null;
  subjects: string;
  starts_at: Date;
  ends_at: Date;
  reason: string;
  created_by: string;
  ended_early_at: Date | null;
}

const silenceOf = (r: SilenceRow): Silence => ({
  id: r.id,
  clusterId: r.cluster_id,
  ruleId: r.rule_id,
  subjects: r.subjects,
  startsAt: r.starts_at.toISOString(),
  endsAt: r.ends_at.toISOString(),
  reason: r.reason,
  createdBy: r.created_by,
  endedEarlyAt: isoOrNull(r.ended_early_at),
});

/**
 * A cluster's silences (`alert_silence`): matching alerts are still evaluated and listed, not
 * notified. Each change commits with its audit row.
 */
@Injectable()
export class AlertSilencesRepository {
  constructor(private readonly database: DatabaseService) {}

  /** Silences in force, and those ended within the last day (what was muted during an incident). */
  async list(clusterId: string): Promise<Silence[]> {
    const rows = await rowsOf<SilenceRow>(
      await this.database.forRequest(),
      `SELECT * FROM alert_silence
        WHERE cluster_id = $1 AND COALESCE(ended_early_at, ends_at) > now() - interval '1 day'
        ORDER BY ends_at DESC`,
      [clusterId],
    );
    return rows.map(silenceOf);
  }

  async create(
    clusterId: string,
    request: CreateSilenceRequest,
    by: string,
    note: AuditNote,
  ): Promise<Silence> {
    if (Date.parse(request.endsAt) <= Date.now())
      throw new DomainError('invalid', 'VALIDATION_FAILED', 'a silence must end in the future', [
        { path: 'endsAt', message: 'must be in the future' },
      ]);
    return (await this.database.forRequest()).transaction(async (tx) => {
      if (request.ruleId) {
        const rule = await firstRow(tx, `SELECT 1 FROM alert_rule WHERE cluster_id = $1 AND id = $2`, [
          clusterId,
          request.ruleId,
        ]);
        if (!rule) throw ruleNotFound(request.ruleId);
      }
      const row = await firstRow<SilenceRow>(
        tx,
        `INSERT INTO alert_silence (cluster_id, rule_id, subjects, ends_at, reason, created_by)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
        [clusterId, request.ruleId ?? null, request.subjects, request.endsAt, request.reason, by],
      );
      await note.within(tx, {
        target: request.subjects,
        detail: {
          silenceId: row!.id,
          ruleId: request.ruleId ?? null,
          endsAt: request.endsAt,
          reason: request.reason,
        },
      });
      return silenceOf(row!);
    });
  }

  async end(clusterId: string, id: string, note: AuditNote): Promise<Silence> {
    return (await this.database.forRequest()).transaction(async (tx) => {
      const row = await firstChanged<SilenceRow>(
        tx,
        `UPDATE alert_silence SET ended_early_at = now()
          WHERE cluster_id = $1 AND id = $2 AND ended_early_at IS NULL AND ends_at > now() RETURNING *`,
        [clusterId, id],
      );
      if (!row) {
        const exists = await firstRow(tx, `SELECT 1 FROM alert_silence WHERE cluster_id = $1 AND id = $2`, [
          clusterId,
          id,
        ]);
        if (!exists) throw silenceNotFound(id);
        throw new DomainError('conflict', 'SILENCE_ENDED', 'the silence has ended already');
      }
      await note.within(tx, { target: row.subjects, detail: { silenceId: id } });
      return silenceOf(row);
    });
  }
}
