import type { AlertRule, CreateAlertRuleRequest } from '@artemis-studio/contracts';
import { alertRuleOf, firstChanged, firstRow, rowsOf, type AlertRuleRow } from '@artemis-studio/db';
import { DatabaseService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import type { AuditNote } from '../audit/audit-note';
import { DomainError, uniquely } from '../domain-error';

export const ruleNotFound = (id: string) =>
  new DomainError('not-found', 'ALERT_RULE_NOT_FOUND', `no alert rule ${id} on this cluster`);
/** A second rule of the same name on a cluster. */
const named = <T>(name: string, write: () => Promise<T>) =>
  uniquely(
    write,
    'alert_rule_name',
    () =>
      new DomainError('conflict', 'ALERT_RULE_NAME_TAKEN', `this cluster has a rule named '${name}' already`),
  );
/**
 * A cluster's alert rules, as the gateway changes them; each change commits with its audit row.
 * The owner reads them at its next tick: a deleted or disabled rule's alerts resolve then.
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

  /**
   * The rules of these names that the cluster has not saved yet, in one transaction and one audit
   * row; a name saved already (perhaps changed since) is left as it is and reported.
   */
  async createMissing(
    clusterId: string,
    rules: CreateAlertRuleRequest[],
    note: AuditNote,
  ): Promise<{ created: AlertRule[]; alreadySaved: string[] }> {
    return (await this.database.forRequest()).transaction(async (tx) => {
      // Two such requests at once: the second waits, and finds the first one's rules.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
        `artemis-studio:alert-rules:${clusterId}`,
      ]);
      const saved = new Set(
        (
          await rowsOf<{ name: string }>(
            tx,
            `SELECT name FROM alert_rule WHERE cluster_id = $1 AND deleted_at IS NULL AND name = ANY($2)`,
            [clusterId, rules.map((r) => r.name)],
          )
        ).map((r) => r.name),
      );
      const created: AlertRule[] = [];
      for (const rule of rules.filter((r) => !saved.has(r.name))) {
        const row = await firstRow<AlertRuleRow>(
          tx,
          `INSERT INTO alert_rule (cluster_id, name, kind, subjects, threshold, for_seconds, severity, labels, description, enabled)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
          [clusterId, ...fieldsOf(rule)],
        );
        created.push(alertRuleOf(row!));
      }
      const alreadySaved = rules.filter((r) => saved.has(r.name)).map((r) => r.name);
      await note.within(tx, {
        target: 'suggested rules',
        detail: { created: created.map((r) => ({ ruleId: r.id, name: r.name })), alreadySaved },
      });
      return { created, alreadySaved };
    });
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
