import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each node's last seen role (kept while it is unreachable) and when it last changed: a failover
 * or failback is then seen by whichever replica owns the cluster, and a role-change alert outlives
 * a takeover instead of being resolved by an owner that never saw the change.
 */
export class NodeRoleHistory1764970000000 implements MigrationInterface {
  name = 'NodeRoleHistory1764970000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE node_state
        ADD COLUMN last_role       text CHECK (last_role IN ('live', 'backup')),
        ADD COLUMN role_changed_at timestamptz`);
    // What the rows say now is the last role seen; when it changed is not known.
    await db.query(`UPDATE node_state SET last_role = role WHERE role IN ('live', 'backup')`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE node_state DROP COLUMN last_role, DROP COLUMN role_changed_at`);
  }
}
