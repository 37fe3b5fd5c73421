import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Message jobs (issue 28, ADR-0012): a move, copy, retry or delete of a queue's messages, run by
 * the cluster's owner in batches. The row is its progress, written after every batch, so a
 * cancel, a crash or a lost lease leaves an exact account of what was done.
 */
export class MessageJobs1764900000000 implements MigrationInterface {
  name = 'MessageJobs1764900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE message_job (
        id                  uuid PRIMARY KEY,
        cluster_id          uuid NOT NULL REFERENCES cluster (id) ON DELETE CASCADE,
        queue               text NOT NULL,
        kind                text NOT NULL,
        status              text NOT NULL,
        filter              text,
        origin              text,
        chosen              integer,
        target              text,
        quarantine          boolean NOT NULL DEFAULT false,
        batch_size          integer NOT NULL,
        planned             jsonb,
        nodes               jsonb NOT NULL DEFAULT '[]',
        in_flight           integer,
        cancellable         boolean NOT NULL,
        cancel_requested_at timestamptz,
        error               text,
        requested_by        text,
        started_at          timestamptz NOT NULL DEFAULT now(),
        updated_at          timestamptz NOT NULL DEFAULT now(),
        finished_at         timestamptz
      )`);
    await db.query(`CREATE INDEX message_job_recent ON message_job (cluster_id, started_at DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE message_job`);
  }
}
