/**
 * A stream's replay after a reconnect (issue 32, item 3: "replay of 500 events after a reconnect
 * p99 ≤ 50 ms"):   npm run bench -- gateway-replay      (BENCH_RECONNECTS=30)
 * The event store and one gateway on a private NATS server, a cluster with 2,000 stored events
 * among 300,000 of 20 other clusters (BENCH_OTHER_EVENTS), received over the last 72 hours with ids
 * of those times, as a store fresh from its migration holds them (ADR-0025: today's and
 * tomorrow's partitions, the earlier days' events in the default one; with BENCH_RETENTION_DAYS,
 * a partition for each of that many days back, as a store kept that long holds them, and every
 * query by seq reads each); each reconnect asks for
 * the `events` topic with a Last-Event-ID 500 events back and is timed
 * from the request to its 500th replayed frame. The limit, in the same run: the same 500 rows read
 * straight from PostgreSQL and serialised, with no event store, bus, gateway or HTTP between.
 */
import { BROKER_EVENT_DAYS, createDataSource, ensurePartitions } from '@artemis-studio/db';
import {
  createTestDatabase,
  insertCluster,
  signIn,
  spawnService,
  startPrivateNats,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { REPLAY } from '../services/event-store/src/history/broker-event.repository';
import { percentile } from './support/percentile';
import { cpuMsOf } from './support/process-stats';
import { runBench } from './support/run-bench';
import { insertEventsSql } from './support/stored-events';

const RECONNECTS = Number(process.env.BENCH_RECONNECTS ?? 30);
const STORED = 2000;
const BEHIND = 500;
const WARM_UPS = 10;
const OTHER_EVENTS = Number(process.env.BENCH_OTHER_EVENTS ?? 300_000);
const SPREAD_HOURS = 72;
/** Days of partitions made back from today, as a store kept with that retention has (0: none). */
const RETENTION_DAYS = Number(process.env.BENCH_RETENTION_DAYS ?? 0);

/** Opens the stream `behind` events back and resolves with the ms until the last of them arrived. */
async function replayMs(url: string, headers: Record<string, string>, lastEventId: number): Promise<number> {
  const controller = new AbortController();
  const started = performance.now();
  const response = await fetch(url, {
    headers: { ...headers, 'Last-Event-ID': String(lastEventId) },
    signal: controller.signal,
  });
  if (response.status !== 200) throw new Error(`the stream answered ${response.status}`);
  const decoder = new TextDecoder();
  let seen = 0;
  let text = '';
  for await (const chunk of response.body!) {
    text += decoder.decode(chunk, { stream: true });
    const frames = text.split('\n\n');
    text = frames.pop()!;
    seen += frames.filter((f) => f.startsWith('id: ')).length;
    if (seen >= BEHIND) break;
  }
  const ms = performance.now() - started;
  controller.abort();
  if (seen < BEHIND) throw new Error(`the replay ended after ${seen} of ${BEHIND} events`);
  return ms;
}

async function main(): Promise<void> {
  const nats = await startPrivateNats();
  const database = await createTestDatabase({ migrated: true });
  process.env.STUDIO_TEST_DATABASE_URL = database.url;
  const db = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
  const services: { stop(): Promise<void> }[] = [];
  try {
    const cluster = await insertCluster(db, {
      nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
    });
    if (RETENTION_DAYS > 0)
      await ensurePartitions(
        db,
        BROKER_EVENT_DAYS,
        new Date(Date.now() - RETENTION_DAYS * 86_400_000),
        new Date(),
      );
    const others = Array.from({ length: 20 }, () => randomUUID());
    const from = Date.now() - SPREAD_HOURS * 3_600_000;
    await db.query(insertEventsSql('broker_event', `($4::uuid[])[1 + i % 20]`), [
      OTHER_EVENTS,
      from,
      SPREAD_HOURS * 3600,
      others,
    ]);
    await db.query(insertEventsSql('broker_event', '$4::uuid'), [
      STORED,
      from,
      SPREAD_HOURS * 3600,
      cluster.id,
    ]);
    // As autovacuum would have, over hours of writes.
    await db.query('ANALYZE broker_event');
    const [{ last }] = (await db.query(
      `SELECT max(seq)::int AS last FROM broker_event WHERE cluster_id = $1`,
      [cluster.id],
    )) as { last: number }[];
    const env = { NATS_URL: nats.url };
    const eventStore = await spawnService('event-store', 18781, env);
    services.push(eventStore);
    const gateway = await spawnService('gateway', 18783, env);
    services.push(gateway);
    const session = await signIn(gateway.url);
    const url = `${gateway.url}/api/v1/stream?clusterId=${cluster.id}&topics=events`;

    // The limit's reads prepared, planned once and without JIT, as the event store's are.
    const limitReader = new Client({
      connectionString: database.url,
      options: '-c jit=off -c plan_cache_mode=force_generic_plan',
    });
    await limitReader.connect();
    services.push({ stop: () => limitReader.end() });

    // Warm both paths, then time them in turns. The event store plans each prepared statement at
    // its first run on a connection; what is timed is a store that has run a while.
    for (let i = 0; i < WARM_UPS; i++) await replayMs(url, session.headers, last - BEHIND);
    // What a reconnect costs each service: the limit's reads between them cost neither.
    const cpuBefore = { gateway: cpuMsOf(gateway.pid), eventStore: cpuMsOf(eventStore.pid) };
    const gatewayMs: number[] = [];
    const limitMs: number[] = [];
    for (let i = 0; i < RECONNECTS; i++) {
      gatewayMs.push(await replayMs(url, session.headers, last - BEHIND));
      const started = performance.now();
      const { rows } = await limitReader.query({
        ...REPLAY.oldestAfter,
        values: [cluster.id, last - BEHIND, BEHIND],
      });
      JSON.stringify(rows);
      limitMs.push(performance.now() - started);
    }
    const cpuPerReconnect = (pid: number, before: number) =>
      ((cpuMsOf(pid) - before) / RECONNECTS).toFixed(1);
    const cpu = {
      gateway: cpuPerReconnect(gateway.pid, cpuBefore.gateway),
      eventStore: cpuPerReconnect(eventStore.pid, cpuBefore.eventStore),
    };
    gatewayMs.sort((a, b) => a - b);
    limitMs.sort((a, b) => a - b);
    console.log(`replay of ${BEHIND} events after a reconnect, ${RECONNECTS} reconnects, one at a time`);
    console.log('path | p50 ms | p99 ms | max ms');
    console.log(
      `read from PostgreSQL and serialised (limit) | ${percentile(limitMs, 50).toFixed(1)} | ${percentile(limitMs, 99).toFixed(1)} | ${limitMs.at(-1)!.toFixed(1)}`,
    );
    console.log(
      `gateway stream, request to the ${BEHIND}th frame | ${percentile(gatewayMs, 50).toFixed(1)} | ${percentile(gatewayMs, 99).toFixed(1)} | ${gatewayMs.at(-1)!.toFixed(1)}`,
    );
    console.log(`CPU ms per reconnect: gateway ${cpu.gateway}, event store ${cpu.eventStore}`);
    console.log(
      `p99 against the limit: ${(percentile(gatewayMs, 99) / percentile(limitMs, 99)).toFixed(1)}x; against the goal of 50 ms: ${(percentile(gatewayMs, 99) / 50).toFixed(2)}`,
    );
  } finally {
    for (const service of services.reverse()) await service.stop();
    await db.destroy();
    await database.drop();
    await nats.stop();
  }
}

runBench(__filename, main);
