import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alerting (issue 29, ADR-0013): rules per cluster; one `alert` row per rule and subject (queue or
 * node) for each time its condition held, kept after it resolves; silences; receivers with their
 * sealed secrets; and the delivery outbox, written in the same transaction as the transition it
 * notifies, so a takeover neither loses a notification nor sends one twice.
 */
export class Alerting1764930000000 implements MigrationInterface {
  name = 'Alerting1764930000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE alert_rule (
        id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cluster_id   uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        created_at   timestamptz NOT NULL DEFAULT now(),
        updated_at   timestamptz NOT NULL DEFAULT now(),
        -- Kept after a delete so its alerts still name it; the owner resolves them.
        deleted_at   timestamptz,
        name         text NOT NULL,
        kind         text NOT NULL,
        subjects     text NOT NULL DEFAULT '*',
        threshold    double precision,
        for_seconds  integer NOT NULL DEFAULT 0 CHECK (for_seconds >= 0),
        severity     text NOT NULL CHECK (severity IN ('info', 'warning', 'critical')),
        labels       jsonb NOT NULL DEFAULT '{}',
        description  text NOT NULL DEFAULT '',
        enabled      boolean NOT NULL DEFAULT true
      )`);
    await db.query(
      `CREATE UNIQUE INDEX alert_rule_name ON alert_rule (cluster_id, name) WHERE deleted_at IS NULL`,
    );
    await db.query(`
      CREATE TABLE alert (
        id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cluster_id        uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        rule_id           uuid NOT NULL REFERENCES alert_rule (id) ON DELETE CASCADE,
        subject           text NOT NULL,
        state             text NOT NULL CHECK (state IN ('pending', 'firing', 'resolved')),
        value             double precision,
        started_at        timestamptz NOT NULL,
        fired_at          timestamptz,
        ended_at          timestamptz,
        end_reason        text,
        last_evaluated_at timestamptz NOT NULL,
        -- Whether receivers were told it fires: only then are they told it resolved.
        notified          boolean NOT NULL DEFAULT false
      )`);
    await db.query(`CREATE UNIQUE INDEX alert_open ON alert (rule_id, subject) WHERE state <> 'resolved'`);
    await db.query(`CREATE INDEX alert_cluster_state ON alert (cluster_id, state)`);
    await db.query(`CREATE INDEX alert_ended ON alert (ended_at DESC) WHERE state = 'resolved'`);
    await db.query(`
      CREATE TABLE alert_silence (
        id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cluster_id     uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        rule_id        uuid REFERENCES alert_rule (id) ON DELETE CASCADE,
        subjects       text NOT NULL DEFAULT '*',
        starts_at      timestamptz NOT NULL DEFAULT now(),
        ends_at        timestamptz NOT NULL,
        ended_early_at timestamptz,
        reason         text NOT NULL,
        created_by     text NOT NULL
      )`);
    await db.query(`CREATE INDEX alert_silence_cluster ON alert_silence (cluster_id, ends_at)`);
    await db.query(`
      CREATE TABLE alert_receiver (
        id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cluster_id    uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now(),
        name          text NOT NULL,
        kind          text NOT NULL CHECK (kind IN ('alertmanager', 'webhook')),
        url           text NOT NULL,
        min_severity  text NOT NULL CHECK (min_severity IN ('info', 'warning', 'critical')),
        -- Sealed like broker credentials (SecretVault, AAD "receiverId|SECRET"); never read back out.
        sealed_secret bytea,
        enabled       boolean NOT NULL DEFAULT true,
        CONSTRAINT alert_receiver_name UNIQUE (cluster_id, name)
      )`);
    await db.query(`
      CREATE TABLE alert_delivery (
        id              bigserial PRIMARY KEY,
        cluster_id      uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        alert_id        uuid NOT NULL REFERENCES alert (id) ON DELETE CASCADE,
        -- Null: the NATS subject studio.v1.alerts.<clusterId>.<state>.
        receiver_id     uuid REFERENCES alert_receiver (id) ON DELETE CASCADE,
        transition      text NOT NULL CHECK (transition IN ('pending', 'firing', 'resolved')),
        -- The alert as it was at the transition: a retry sends what happened, not what is now.
        payload         jsonb NOT NULL,
        status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts        integer NOT NULL DEFAULT 0,
        created_at      timestamptz NOT NULL DEFAULT now(),
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        delivered_at    timestamptz,
        last_error      text
      )`);
    await db.query(
      `CREATE INDEX alert_delivery_due ON alert_delivery (cluster_id, next_attempt_at) WHERE status = 'pending'`,
    );
    await db.query(`CREATE INDEX alert_delivery_alert ON alert_delivery (alert_id)`);
    await db.query(`
      CREATE TABLE alert_evaluation (
        cluster_id   uuid PRIMARY KEY REFERENCES cluster (id) ON DELETE CASCADE,
        evaluated_at timestamptz NOT NULL,
        -- The longest tier interval: an evaluation older than twice this is stale.
        interval_ms  integer NOT NULL,
        rules        integer NOT NULL,
        error        text
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'alert_evaluation',
      'alert_delivery',
      'alert_receiver',
      'alert_silence',
      'alert',
      'alert_rule',
    ])
      await db.query(`DROP TABLE ${table}`);
  }
}
