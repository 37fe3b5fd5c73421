import { createTestDatabase, type TestDatabase } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createDataSource, createStatementPool, type StatementPool } from '../data-source';
import { preparedRowsOf, rowsOf } from './typed-rows';
import { BROKER_EVENT_DAYS, ensurePartitions, eventIdAt } from './time-partitions';

const DAY = 86_400_000;

describe('prepared statements, against real PostgreSQL', () => {
  let database: TestDatabase;
  let db: DataSource;
  let statements: StatementPool;
  const cluster = randomUUID();
  const statement = {
    name: 'sql-spec-events-after',
    text: `SELECT seq, event_id FROM broker_event WHERE cluster_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
  };

  beforeAll(async () => {
    database = await createTestDatabase({ migrated: true });
    db = await createDataSource({ url: database.url, poolSize: 1 }).initialize();
    // One session: the statement's plans are that session's, read back from it below.
    statements = createStatementPool({ url: database.url, poolSize: 1 });
    await ensurePartitions(db, BROKER_EVENT_DAYS, new Date(Date.now() - 30 * DAY), new Date());
    for (let i = 0; i < 40; i++)
      await db.query(
        `INSERT INTO broker_event (received_at, cluster_id, event_id, type, node, props)
         VALUES (now(), $1, $2, 'CONSUMER_CREATED', 'a', '{}')`,
        [
          cluster,
          eventIdAt(new Date(Date.now() - (i % 30) * DAY)).replace(/0{12}$/, String(i).padStart(12, '0')),
        ],
      );
  });
  afterAll(async () => {
    await statements.end();
    await db.destroy();
    await database.drop();
  });

  it('reads what the same statement unprepared reads, planned once for every value', async () => {
    for (let after = 0; after < 8; after++) {
      const params = [cluster, after * 3, 10];
      expect(await preparedRowsOf(statements, statement, params)).toEqual(
        await rowsOf(db, statement.text, params),
      );
    }
    const [plans] = await preparedRowsOf<{ generic_plans: string; custom_plans: string }>(
      statements,
      {
        name: 'sql-spec-plans',
        text: `SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = $1`,
      },
      [statement.name],
    );
    // Left to itself, PostgreSQL plans a read for its values at least the first five times on each
    // connection, and the replay's reads at every run (ADR-0025); here each run is planned once.
    expect(plans).toEqual({ generic_plans: '8', custom_plans: '0' });
  });
});
