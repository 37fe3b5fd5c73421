import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The whole schema of the brief ("Storage"). Raw SQL, so what PostgreSQL holds is exactly this. */
export class InitialSchema1764400000000 implements MigrationInterface {
  name = 'InitialSchema1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE cluster (
        id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        created_at     timestamptz NOT NULL DEFAULT now(),
        updated_at     timestamptz NOT NULL DEFAULT now(),
        name           text NOT NULL,
        jolokia_origin text,
        CONSTRAINT cluster_name_unique UNIQUE (name)
      )`);
    await db.query(`
      CREATE TABLE cluster_node (
        id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        cluster_id  uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        position    integer NOT NULL,
        name        text NOT NULL,
        jolokia_url text NOT NULL,
        amqp_url    text,
        CONSTRAINT cluster_node_name_unique UNIQUE (cluster_id, name)
      )`);
    // Sealed with AES-256-GCM, AAD "clusterId|KIND" (SecretVault); never readable without the key.
    await db.query(`
      CREATE TABLE cluster_credential (
        cluster_id uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        updated_at timestamptz NOT NULL DEFAULT now(),
        kind       text NOT NULL CHECK (kind IN ('JOLOKIA', 'AMQP')),
        sealed     bytea NOT NULL,
        PRIMARY KEY (cluster_id, kind)
      )`);
    await db.query(`
      CREATE TABLE node_state (
        node_id         uuid PRIMARY KEY REFERENCES cluster_node (id) ON DELETE CASCADE,
        cluster_id      uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        observed_at     timestamptz NOT NULL,
        last_ok_at      timestamptz,
        uptime_ms       bigint,
        reachable       boolean NOT NULL,
        active          boolean,
        backup          boolean,
        replica_sync    boolean,
        role            text NOT NULL CHECK (role IN ('live', 'backup', 'unknown')),
        broker_node_id  text,
        version         text,
        reason          text
      )`);
    await db.query(`CREATE INDEX node_state_cluster ON node_state (cluster_id)`);
    await db.query(`
      CREATE TABLE queue_snapshot (
        node_id               uuid NOT NULL REFERENCES cluster_node (id) ON DELETE CASCADE,
        cluster_id            uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        observed_at           timestamptz NOT NULL,
        changed_at            timestamptz NOT NULL,
        message_count         bigint NOT NULL,
        delivering_count      bigint NOT NULL,
        messages_added        bigint NOT NULL,
        messages_acknowledged bigint NOT NULL,
        messages_expired      bigint NOT NULL,
        messages_killed       bigint NOT NULL,
        consumer_count        integer NOT NULL,
        paused                boolean NOT NULL,
        durable               boolean NOT NULL,
        temporary             boolean NOT NULL,
        name                  text NOT NULL,
        address               text NOT NULL,
        routing_type          text NOT NULL,
        PRIMARY KEY (node_id, name)
      )`);
    await db.query(`CREATE INDEX queue_snapshot_cluster_name ON queue_snapshot (cluster_id, name)`);
    await db.query(`
      CREATE TABLE metric_sample (
        sampled_at            timestamptz NOT NULL,
        cluster_id            uuid NOT NULL,
        node_id               uuid NOT NULL,
        message_count         bigint NOT NULL,
        messages_added        bigint NOT NULL,
        messages_acknowledged bigint NOT NULL,
        consumer_count        integer NOT NULL,
        queue                 text NOT NULL
      ) WITH (fillfactor = 100)`);
    await db.query(`CREATE INDEX metric_sample_series ON metric_sample (cluster_id, queue, sampled_at)`);
    // Append-only in time order: a BRIN index lets the reaper find old rows at almost no cost.
    await db.query(`CREATE INDEX metric_sample_age ON metric_sample USING brin (sampled_at)`);
    await db.query(`
      CREATE TABLE studio_setting (
        key        text PRIMARY KEY,
        updated_at timestamptz NOT NULL DEFAULT now(),
        value      jsonb NOT NULL
      )`);
    // A log keyed by insertion order (ADR-0028): seq is the identity, the order and the SSE cursor.
    await db.query(`
      CREATE TABLE broker_event (
        seq            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        broker_ts      timestamptz,
        received_at    timestamptz NOT NULL,
        cluster_id     uuid NOT NULL,
        event_id       uuid NOT NULL,
        type           text NOT NULL,
        node           text NOT NULL,
        address        text,
        queue          text,
        consumer       text,
        session        text,
        connection     text,
        remote_address text,
        "user"         text,
        props          jsonb NOT NULL
      ) WITH (fillfactor = 100)`);
    // A redelivered event (crash between commit and ack) must not become a second row.
    await db.query(`CREATE UNIQUE INDEX broker_event_event_id ON broker_event (event_id)`);
    // Replay (seq > cursor) and unfiltered history pages.
    await db.query(`CREATE INDEX broker_event_cluster_seq ON broker_event (cluster_id, seq)`);
    // Filtered history pages, newest first, by keyset on seq.
    await db.query(`CREATE INDEX broker_event_cluster_type_seq ON broker_event (cluster_id, type, seq)`);
    await db.query(
      `CREATE INDEX broker_event_cluster_address_seq ON broker_event (cluster_id, address, seq) WHERE address IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX broker_event_cluster_queue_seq ON broker_event (cluster_id, queue, seq) WHERE queue IS NOT NULL`,
    );
    await db.query(`CREATE INDEX broker_event_age ON broker_event USING brin (received_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of [
      'broker_event',
      'studio_setting',
      'metric_sample',
      'queue_snapshot',
      'node_state',
      'cluster_credential',
      'cluster_node',
      'cluster',
    ]) {
      await db.query(`DROP TABLE IF EXISTS ${table}`);
    }
  }
}
