import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { testDatabaseUrl } from './config';

const WRITE_HOURS = `
  INSERT INTO queue_hour (cluster_id, queue, hour, depth_peak)
  SELECT $1, $2, h,
         CASE WHEN least(abs(extract(hour FROM h AT TIME ZONE 'UTC')::int - $3),
                         24 - abs(extract(hour FROM h AT TIME ZONE 'UTC')::int - $3)) <= 2
              THEN round($4 * (1 + (extract(day FROM h)::int % 3) / 2.0)) ELSE 0 END
    FROM generate_series(date_trunc('hour', now()) - $5 * interval '1 day',
                         date_trunc('hour', now()) - interval '1 hour', interval '1 hour') h
  ON CONFLICT DO NOTHING`;

/**
 * Writes `days` of a queue's hourly peaks ending an hour ago, as the history keeper sums them up
 * (queue_hour, ADR-0039): from `peak` to twice it, by the day, at the hours of the day within two
 * of `busyHour` (UTC), none at the others. A daily pattern for the baselines to learn. Into the test database when no `db` is
 * given (the browser tests hold none).
 */
export async function writeQueueHours(
  clusterId: string,
  queue: string,
  { days, busyHour, peak }: { days: number; busyHour: number; peak: number },
  db?: Pick<DataSource, 'query'>,
): Promise<void> {
  const params = [clusterId, queue, busyHour, peak, days];
  if (db) {
    await db.query(WRITE_HOURS, params);
    return;
  }
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(WRITE_HOURS, params);
  } finally {
    await client.end();
  }
}
