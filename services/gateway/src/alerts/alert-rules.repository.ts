import type {
  AlertRule,
  CreateAlertRuleRequest,
  CreateSilenceRequest,
  Silence,
} from '@artemis-studio/contracts';
import {
  alertRuleOf,
  firstChanged,
  firstRow,
  isoOrNull,
  rowsOf,
  type AlertRuleRow,
} from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { AuditNote } from '../audit/audit-note';
import { DomainError, uniquely } from '../domain-error';

const ruleNotFound = (id: string) =>
  new DomainError('not-found', 'ALERT_RULE_NOT_FOUND', `no alert rule ${id} on this cluster`);
/** A second rule of the same name on a cluster. */
const named = <T>(name: string, write: () => Promise<T>) =>
  uniquely(
    write,
    'alert_rule_name',
    () =>
      new DomainError('conflict', 'ALERT_RULE_NAME_TAKEN', `this cluster has a rule named '${name}' already`),
  );
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
 * A cluster's alert rules and silences, as the gateway changes them; each change commits with its
 * audit row. The owner reads them at its next tick: a deleted or disabled rule's alerts resolve then.
 */
@Injectable()
export class AlertRulesRepository {
  constructor(private readonly database: DatabaseService) {}

  async list(clusterId: string): Promise<AlertRule[]> {
    const rows = await rowsOf<AlertRuleRow>(
      await this.database.forRequest(),
      `SELECT * FROM alert_rule WHERE cluster_id = $1 AND deleted_at IS NULL ORDER BY name`,
      [clusterId],
    );
    return rows.map(alertRuleOf);
  }

  async create(clusterId: string, rule: CreateAlertRuleRequest, note: AuditNote): Promise<AlertRule> {
    return named(rule.name, async () =>
      (await this.database.forRequest()).transaction(async (tx) => {
        const row = await firstRow<AlertRuleRow>(
          tx,
          `INSERT INTO alert_rule (cluster_id, name, kind, subjects, threshold, for_seconds, severity, labels, description, enabled)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
          [clusterId, ...fieldsOf(rule)],
        );
        await note.within(tx, { target: rule.name, detail: { ruleId: row!.id, kind: rule.kind } });
        return alertRuleOf(row!);
      }),
    );
  }

  async update(
    clusterId: string,
    id: string,
    rule: CreateAlertRuleRequest,
    note: AuditNote,
  ): Promise<AlertRule> {
    return named(rule.name, async () =>
      (await this.database.forRequest()).transaction(async (tx) => {
        const row = await firstChanged<AlertRuleRow>(
          tx,
          `UPDATE alert_rule SET name = $3, kind = $4, subjects = $5, threshold = $6, for_seconds = $7, severity = $8,
                  labels = $9, description = $10, enabled = $11, updated_at = now()
            WHERE cluster_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING *`,
          [clusterId, id, ...fieldsOf(rule)],
        );
        if (!row) throw ruleNotFound(id);
        await note.within(tx, {
          target: rule.name,
          detail: { ruleId: id, kind: rule.kind, enabled: rule.enabled },
        });
        return alertRuleOf(row);
      }),
    );
  }

  /** Kept (its alerts still name it) but gone from every list; the owner resolves its open alerts. */
  async delete(clusterId: string, id: string, note: AuditNote): Promise<void> {
    await (
      await this.database.forRequest()
    ).transaction(async (tx) => {
      const row = await firstChanged<{ name: string }>(
        tx,
        `UPDATE alert_rule SET deleted_at = now(), enabled = false, updated_at = now()
          WHERE cluster_id = $1 AND id = $2 AND deleted_at IS NULL RETURNING name`,
        [clusterId, id],
      );
      if (!row) throw ruleNotFound(id);
      await note.within(tx, { target: row.name, detail: { ruleId: id } });
    });
  }

  /** Silences in force, and those ended within the last day (what was muted during an incident). */
  async silences(clusterId: string): Promise<Silence[]> {
    const rows = await rowsOf<SilenceRow>(
      await this.database.forRequest(),
      `SELECT * FROM alert_silence
        WHERE cluster_id = $1 AND COALESCE(ended_early_at, ends_at) > now() - interval '1 day'
        ORDER BY ends_at DESC`,
      [clusterId],
    );
    return rows.map(silenceOf);
  }

  async silence(
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

  async endSilence(clusterId: string, id: string, note: AuditNote): Promise<Silence> {
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

const fieldsOf = (rule: CreateAlertRuleRequest) => [
  rule.name,
  rule.kind,
  rule.subjects,
  rule.threshold,
  rule.forSeconds,
  rule.severity,
  JSON.stringify(rule.labels),
  rule.description,
  rule.enabled,
];
