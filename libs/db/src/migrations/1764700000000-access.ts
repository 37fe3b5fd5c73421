import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who may see and do what, and the record of what they did (docs/security.md).
 *
 * Secrets are never stored: passwords as scrypt hashes, session ids and API token secrets as
 * SHA-256 digests, so a copy of the database signs nobody in. Sessions live here rather than in a
 * replica's memory so any gateway replica serves any session and a sign-out ends it everywhere.
 *
 * `audit_event` is append-only: a trigger refuses every UPDATE, and every DELETE except the
 * retention reaper's, which sets `studio.audit_reaper` for its own transaction.
 */
export class Access1764700000000 implements MigrationInterface {
  name = 'Access1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE auth_user (
        id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        username       text NOT NULL,
        kind           text NOT NULL CHECK (kind IN ('local', 'oidc', 'service')),
        password_hash  text,
        groups         text[] NOT NULL DEFAULT '{}',
        disabled       boolean NOT NULL DEFAULT false,
        created_at     timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz,
        CONSTRAINT auth_user_username_unique UNIQUE (username)
      )`);
    await db.query(`
      CREATE TABLE auth_grant (
        id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        subject_kind text NOT NULL CHECK (subject_kind IN ('user', 'group')),
        subject      text NOT NULL,
        role         text NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
        clusters     text NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT auth_grant_unique UNIQUE (subject_kind, subject, role, clusters)
      )`);
    await db.query(`
      CREATE TABLE auth_session (
        id_digest     bytea PRIMARY KEY,
        user_id       uuid NOT NULL REFERENCES auth_user (id) ON DELETE CASCADE,
        created_at    timestamptz NOT NULL DEFAULT now(),
        last_seen_at  timestamptz NOT NULL DEFAULT now(),
        expires_at    timestamptz NOT NULL,
        revoked_at    timestamptz,
        address       text
      )`);
    await db.query(`CREATE INDEX auth_session_user ON auth_session (user_id)`);
    await db.query(`
      CREATE TABLE auth_token (
        id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        secret_digest bytea NOT NULL UNIQUE,
        name          text NOT NULL,
        owner_id      uuid NOT NULL REFERENCES auth_user (id) ON DELETE CASCADE,
        role          text NOT NULL CHECK (role IN ('viewer', 'operator', 'admin')),
        clusters      text NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        expires_at    timestamptz,
        last_used_at  timestamptz,
        revoked_at    timestamptz
      )`);
    await db.query(`
      CREATE TABLE audit_event (
        seq         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at          timestamptz NOT NULL DEFAULT now(),
        actor_kind  text NOT NULL,
        actor_id    text,
        actor_name  text NOT NULL,
        address     text,
        role        text,
        action      text NOT NULL,
        cluster_id  uuid,
        target      text,
        outcome     text NOT NULL CHECK (outcome IN ('success', 'failure', 'denied')),
        status      integer NOT NULL,
        code        text,
        request_id  text,
        detail      jsonb NOT NULL DEFAULT '{}'
      ) WITH (fillfactor = 100)`);
    await db.query(`CREATE INDEX audit_event_at ON audit_event USING brin (at)`);
    // The sign-in limiter counts recent failed password tries by user and by address.
    await db.query(
      `CREATE INDEX audit_event_password_tries ON audit_event (at) WHERE action IN ('auth.sign-in', 'auth.password')`,
    );
    await db.query(`
      CREATE FUNCTION audit_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('studio.audit_reaper', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_event is append-only (% refused)', TG_OP;
      END $$`);
    await db.query(`
      CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event
      FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE audit_event`);
    await db.query(`DROP FUNCTION audit_event_append_only()`);
    await db.query(`DROP TABLE auth_token`);
    await db.query(`DROP TABLE auth_session`);
    await db.query(`DROP TABLE auth_grant`);
    await db.query(`DROP TABLE auth_user`);
  }
}
