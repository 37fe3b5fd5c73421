import { channels, rpcs, subjects, type BrokerEvent, type RawBrokerEvent } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import { SettingsRepository } from '@artemis-studio/platform';
import {
  TcpProxy,
  spawnService,
  startService,
  testConfig,
  testDatabaseUrl,
  waitFor,
  type RunningService,
  type ServiceProcess,
  testBus,
  rawBrokerEvent,
} from '@artemis-studio/testing';
import { connect } from 'nats';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { EventStoreModule } from './app.module';
import { RetentionService } from './retention/retention.service';

const rawEvent = (clusterId: string, n: number, receivedAt = new Date()): RawBrokerEvent =>
  rawBrokerEvent({
    clusterId,
    type: n % 2 ? 'CONSUMER_CREATED' : 'CONSUMER_CLOSED',
    brokerTs: receivedAt.toISOString(),
    receivedAt: receivedAt.toISOString(),
    address: `q${n % 7}`,
    queue: `q${n % 7}`,
    consumer: String(n),
    props: { _AMQ_NotifType: 'CONSUMER_CREATED', _AMQ_Distance: 0, n },
  });

describe('event store against real PostgreSQL and NATS', () => {
  let db: DataSource;
  const bus = testBus('event-store-test');

  /** Publishes events to the stream, `inFlight` at a time; returns them in publish order. */
  const publish = async (clusterId: string, count: number, { inFlight = 500, perSecond = 0 } = {}) => {
    const events = Array.from({ length: count }, (_, n) => rawEvent(clusterId, n));
    const started = Date.now();
    for (let i = 0; i < events.length; i += inFlight) {
      await Promise.all(
        events
          .slice(i, i + inFlight)
          .map((e) =>
            bus.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), e, { msgId: e.eventId }),
          ),
      );
      if (perSecond) {
        const due = started + ((i + inFlight) / perSecond) * 1000;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      }
    }
    return events;
  };
  const stored = async (clusterId: string): Promise<{ seq: number; eventId: string }[]> =>
    (
      await db.query(`SELECT seq, event_id FROM broker_event WHERE cluster_id = $1 ORDER BY seq`, [clusterId])
    ).map((r: { seq: string; event_id: string }) => ({ seq: Number(r.seq), eventId: r.event_id }));
  const countOf = async (clusterId: string) =>
    Number((await db.query(`SELECT count(*) FROM broker_event WHERE cluster_id = $1`, [clusterId]))[0].count);

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    await bus.ready();
  });

  afterAll(async () => {
    await bus.close();
    await db.destroy();
  });

  describe('one replica in process', () => {
    let store: RunningService;
    beforeAll(async () => {
      store = await startService(EventStoreModule);
    });
    afterAll(() => store.close());

    it('persists 10,000 events exactly once, seq increasing, and publishes them stored in order', async () => {
      const clusterId = randomUUID();
      const published: BrokerEvent[] = [];
      const unsubscribe = bus.subscribe(
        channels.eventStored,
        subjects.eventStored(clusterId),
        (e) => void published.push(e),
      );
      const events = await publish(clusterId, 10_000);

      await waitFor('10,000 stored events published', () => published.length >= 10_000, {
        timeoutMs: 60_000,
      });
      unsubscribe();
      const rows = await stored(clusterId);
      expect(rows).toHaveLength(10_000);
      expect(new Set(rows.map((r) => r.eventId))).toEqual(new Set(events.map((e) => e.eventId)));
      expect(published.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
      for (let i = 1; i < published.length; i++)
        expect(published[i].seq).toBeGreaterThan(published[i - 1].seq);
    }, 90_000);

    it('replays exactly the events after a cursor, at most 500, and pages history by seq', async () => {
      const clusterId = randomUUID();
      await publish(clusterId, 700);
      await waitFor('700 stored', async () => (await countOf(clusterId)) === 700);
      const rows = await stored(clusterId);

      const { events } = await bus.request(rpcs.eventsSince, {
        clusterId,
        afterSeq: rows[99].seq,
        limit: 500,
      });
      expect(events.map((e) => e.seq)).toEqual(rows.slice(100, 600).map((r) => r.seq));
      const newest = await bus.request(rpcs.eventsSince, {
        clusterId,
        afterSeq: rows[99].seq,
        limit: 500,
        newest: true,
      });
      expect(newest.events.map((e) => e.seq)).toEqual(rows.slice(200).map((r) => r.seq));
      expect(newest.skipped).toBe(100);
      const newestAll = await bus.request(rpcs.eventsSince, {
        clusterId,
        afterSeq: rows[299].seq,
        limit: 500,
        newest: true,
      });
      expect(newestAll).toMatchObject({ skipped: 0 });
      expect(newestAll.events).toHaveLength(400);
      const tail = await bus.request(rpcs.eventsSince, { clusterId, afterSeq: rows[649].seq, limit: 500 });
      expect(tail.events.map((e) => e.seq)).toEqual(rows.slice(650).map((r) => r.seq));
      expect(await bus.request(rpcs.newestSeq, { clusterId })).toEqual({ seq: rows[699].seq });
      expect(await bus.request(rpcs.newestSeq, { clusterId: randomUUID() })).toEqual({ seq: 0 });

      const page1 = await bus.request(rpcs.eventsHistory, { clusterId, query: { limit: 300, queue: 'q3' } });
      expect(page1.items.every((e) => e.queue === 'q3')).toBe(true);
      expect(page1.items.map((e) => e.seq)).toEqual([...page1.items.map((e) => e.seq)].sort((a, b) => b - a));
      expect(page1).toMatchObject({ nextCursor: null, dropped: 0 });
      const byType = await bus.request(rpcs.eventsHistory, {
        clusterId,
        query: { limit: 200, type: 'CONSUMER_CREATED' },
      });
      expect(byType.items).toHaveLength(200);
      const next = await bus.request(rpcs.eventsHistory, {
        clusterId,
        query: { limit: 200, type: 'CONSUMER_CREATED', before: byType.nextCursor! },
      });
      expect(next.items).toHaveLength(150);
      expect(next.nextCursor).toBeNull();
    });

    it('serves replay and history from an index, never a sequential scan', async () => {
      const plans = [
        `SELECT * FROM broker_event WHERE cluster_id = gen_random_uuid() AND seq > 5 ORDER BY seq LIMIT 500`,
        `SELECT * FROM broker_event WHERE cluster_id = gen_random_uuid() AND type = 'X' AND seq < 100 ORDER BY seq DESC LIMIT 101`,
        `SELECT coalesce(max(seq), 0) FROM broker_event WHERE cluster_id = gen_random_uuid()`,
      ];
      // Each day's partition (ADR-0025) must have the index: the planner would rather read a
      // partition this small (or never analysed) whole, so it is told to only when there is none.
      const runner = db.createQueryRunner();
      try {
        await runner.query('SET enable_seqscan = off');
        for (const sql of plans) {
          const plan = JSON.stringify(await runner.query(`EXPLAIN (FORMAT JSON) ${sql}`));
          expect(plan).not.toContain('Seq Scan');
          expect(plan).toContain('Index');
        }
      } finally {
        await runner.query('RESET enable_seqscan');
        await runner.release();
      }
    });

    it('reaps only events past retention', async () => {
      const clusterId = randomUUID();
      const old = new Date(Date.now() - 100 * 3_600_000);
      for (const [n, at] of [
        [1, old],
        [2, old],
        [3, new Date()],
      ] as const) {
        const e = rawEvent(clusterId, n, at);
        await bus.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), e, { msgId: e.eventId });
      }
      await waitFor('3 stored', async () => (await countOf(clusterId)) === 3);
      const { removed } = await bus.request(rpcs.reapEvents, {});
      expect(removed).toBeGreaterThanOrEqual(2);
      expect(await countOf(clusterId)).toBe(1);
    });

    it('makes the days ahead of the clock, a missing one again at its hourly run (ADR-0025)', async () => {
      // The migration makes today and tomorrow; the day after is the keeper's.
      const dayAfter = `broker_event_p${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10).replace(/\D/g, '')}`;
      const present = async () =>
        (await db.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [dayAfter]))[0].present as boolean;
      await db.query(`DROP TABLE IF EXISTS ${dayAfter}`);
      expect(await present()).toBe(false);
      await store.app.get(RetentionService).keepHourly();
      expect(await present()).toBe(true);
    });

    it('counts a drop report once, however often it is retried', async () => {
      const clusterId = randomUUID();
      const report = {
        reportId: randomUUID(),
        clusterId,
        source: 'notifier' as const,
        count: 7,
        reason: 'test',
        ts: new Date().toISOString(),
      };
      expect(await bus.request(rpcs.recordDrops, report)).toEqual({ dropped: 7 });
      expect(await bus.request(rpcs.recordDrops, report)).toEqual({ dropped: 7 });
      expect(await bus.request(rpcs.recordDrops, { ...report, reportId: randomUUID(), count: 3 })).toEqual({
        dropped: 10,
      });
      expect((await bus.request(rpcs.eventsHistory, { clusterId, query: { limit: 10 } })).dropped).toBe(10);
    });

    it("says when the drops happened, per source, from the reports' own times", async () => {
      const clusterId = randomUUID();
      const report = (
        source: 'notifier' | 'stream' | 'broker-ring',
        count: number,
        ts: string,
        from?: string,
      ) =>
        bus.request(rpcs.recordDrops, {
          reportId: randomUUID(),
          clusterId,
          source,
          count,
          reason: 'test',
          ts,
          ...(from && { from }),
        });
      await report('notifier', 2, '2026-11-30T10:44:00.000Z');
      await report('notifier', 5, '2026-11-30T10:42:00.000Z');
      await report('stream', 1, '2026-11-30T11:00:00.000Z');
      // A ring found to have discarded while unread: the period starts where the reading stopped.
      await report('broker-ring', 40, '2026-11-30T10:30:00.000Z', '2026-11-30T10:20:00.000Z');
      const page = await bus.request(rpcs.eventsHistory, { clusterId, query: { limit: 1 } });
      expect(page).toMatchObject({
        dropped: 48,
        drops: [
          {
            source: 'stream',
            dropped: 1,
            firstAt: '2026-11-30T11:00:00.000Z',
            lastAt: '2026-11-30T11:00:00.000Z',
          },
          {
            source: 'notifier',
            dropped: 7,
            firstAt: '2026-11-30T10:42:00.000Z',
            lastAt: '2026-11-30T10:44:00.000Z',
          },
          {
            source: 'broker-ring',
            dropped: 40,
            firstAt: '2026-11-30T10:20:00.000Z',
            lastAt: '2026-11-30T10:30:00.000Z',
          },
        ],
      });
    });

    it('counts and acknowledges a malformed message instead of redelivering it forever', async () => {
      const nc = await connect({ servers: testConfig.natsUrl });
      const jsm = await nc.jetstreamManager();
      const consumer = () => jsm.consumers.info('STUDIO_EVENTS', 'event-store');
      const malformed = () =>
        fetch(`${store.url}/metrics`).then(async (r) =>
          Number(
            (await r.text()).match(
              /studio_bus_malformed_messages_total\{channel="event.raw"[^}]*\} (\d+)/,
            )?.[1] ?? 0,
          ),
        );
      const before = { malformed: await malformed(), redelivered: (await consumer()).num_redelivered };
      await nc
        .jetstream()
        .publish(subjects.eventRaw(randomUUID()), new TextEncoder().encode('{"not":"an event"}'));
      await waitFor(
        'the malformed message counted',
        async () => (await malformed()) === before.malformed + 1,
      );
      await waitFor('nothing left unacknowledged', async () => (await consumer()).num_ack_pending === 0);
      // Redelivery counts are cumulative over the durable's life: compare, and give a redelivery time to happen.
      await new Promise((r) => setTimeout(r, 1500));
      expect((await consumer()).num_redelivered).toBe(before.redelivered);
      expect(await malformed()).toBe(before.malformed + 1);
      await nc.close();
    });

    it('loses nothing when its buffer is full: the overflow stays in the stream and is written later', async () => {
      const settings = new SettingsRepository(db);
      await settings.put('artemis-studio.events.buffer-size', 20);
      try {
        await waitFor('the setting in force', async () => {
          const text = await (await fetch(`${store.url}/metrics`)).text();
          return text.includes('studio_event_store_writer');
        });
        await new Promise((r) => setTimeout(r, 2500)); // settings refresh every 2 s
        const clusterId = randomUUID();
        const deferred = async () =>
          Number(
            (await (await fetch(`${store.url}/metrics`)).text()).match(
              /studio_event_store_deferred_total\{[^}]*\} (\d+)/,
            )?.[1] ?? 0,
          );
        const before = await deferred();
        await publish(clusterId, 2000, { inFlight: 1000 });
        await waitFor('all 2,000 written', async () => (await countOf(clusterId)) === 2000, {
          timeoutMs: 60_000,
        });
        expect(await deferred()).toBeGreaterThan(before);
        expect((await bus.request(rpcs.eventsHistory, { clusterId, query: { limit: 1 } })).dropped).toBe(0);
      } finally {
        await settings.reset('artemis-studio.events.buffer-size');
      }
    }, 90_000);
  });

  describe('as separate processes', () => {
    const processes: ServiceProcess[] = [];
    afterEach(async () => {
      await Promise.all(processes.splice(0).map((p) => p.stop()));
    });

    it('loses and duplicates nothing when killed with SIGKILL mid-stream', async () => {
      const clusterId = randomUUID();
      processes.push(await spawnService('event-store', 18383));
      const publishing = publish(clusterId, 10_000, { inFlight: 250, perSecond: 4000 });
      await waitFor('the first events written', async () => (await countOf(clusterId)) > 1000, {
        timeoutMs: 30_000,
      });
      await processes.pop()!.kill();
      const atKill = await countOf(clusterId);
      const events = await publishing;
      processes.push(await spawnService('event-store', 18383));
      await waitFor('all 10,000 written', async () => (await countOf(clusterId)) === 10_000, {
        timeoutMs: 60_000,
      });
      expect(atKill).toBeLessThan(10_000);
      const rows = await stored(clusterId);
      expect(new Set(rows.map((r) => r.eventId))).toEqual(new Set(events.map((e) => e.eventId)));
    }, 120_000);

    it('hands a backlog over on a graceful stop without holding any of it for the acknowledgement window', async () => {
      const clusterId = randomUUID();
      const events = await publish(clusterId, 30_000);
      const first = await spawnService('event-store', 18387);
      processes.push(first);
      await waitFor('the first of the backlog written', async () => (await countOf(clusterId)) > 2000, {
        timeoutMs: 30_000,
      });
      await first.stop();
      const atStop = await countOf(clusterId);
      processes.push(await spawnService('event-store', 18388));
      // The consumer's window is 60 s. Before, a stop mid-drain left the up to 1,000 events its
      // open pull had been sent unacknowledged until then.
      await waitFor(
        'the rest written by the next writer',
        async () => (await countOf(clusterId)) === 30_000,
        {
          timeoutMs: 20_000,
        },
      );
      expect(atStop).toBeLessThan(30_000);
      const rows = await stored(clusterId);
      expect(new Set(rows.map((r) => r.eventId))).toEqual(new Set(events.map((e) => e.eventId)));
    }, 120_000);

    it('keeps events in the stream while PostgreSQL is unreachable for 20 s, and writes them once it is back', async () => {
      const clusterId = randomUUID();
      const pg = new URL(testDatabaseUrl());
      const proxy = await TcpProxy.start(pg.hostname, Number(pg.port || 5432));
      const viaProxy = new URL(testDatabaseUrl());
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      try {
        processes.push(await spawnService('event-store', 18384, { DATABASE_URL: viaProxy.toString() }));
        await publish(clusterId, 500);
        await waitFor('the first 500 written', async () => (await countOf(clusterId)) === 500);

        proxy.block();
        const outage = Date.now();
        await publish(clusterId, 1500, { inFlight: 100, perSecond: 150 });
        while (Date.now() - outage < 20_000) await new Promise((r) => setTimeout(r, 500));
        expect(await countOf(clusterId)).toBe(500);

        proxy.unblock();
        await waitFor('all 2,000 written after the outage', async () => (await countOf(clusterId)) === 2000, {
          timeoutMs: 60_000,
        });
        const rows = await stored(clusterId);
        expect(new Set(rows.map((r) => r.eventId)).size).toBe(2000);
      } finally {
        await proxy.stop();
      }
    }, 150_000);

    it('two replicas under load: a client following the cursor never skips an event, even across a writer crash', async () => {
      const clusterId = randomUUID();
      const replicas = [await spawnService('event-store', 18385), await spawnService('event-store', 18386)];
      processes.push(...replicas);
      const isWriter = async (p: ServiceProcess) =>
        /studio_event_store_writer\{[^}]*\} 1/.test(await (await fetch(`${p.url}/metrics`)).text());

      const seen: number[] = [];
      let cursor = 0;
      let following = true;
      const follow = (async () => {
        while (following) {
          try {
            const { events } = await bus.request(rpcs.eventsSince, {
              clusterId,
              afterSeq: cursor,
              limit: 500,
            });
            for (const e of events) seen.push(e.seq);
            if (events.length) cursor = events[events.length - 1].seq;
          } catch {
            // A replica going down mid-request: the client simply asks again.
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })();

      const publishing = publish(clusterId, 6000, { inFlight: 100, perSecond: 1500 });
      await waitFor('a third written', async () => (await countOf(clusterId)) > 2000, { timeoutMs: 30_000 });
      const writer = (await Promise.all(replicas.map(isWriter))).indexOf(true);
      expect(writer).toBeGreaterThanOrEqual(0);
      await replicas[writer].kill();
      await publishing;
      await waitFor(
        'all 6,000 written by the other replica',
        async () => (await countOf(clusterId)) === 6000,
        { timeoutMs: 60_000 },
      );
      await waitFor('the client to catch up', () => seen.length >= 6000, { timeoutMs: 30_000 });
      following = false;
      await follow;

      const rows = await stored(clusterId);
      expect(seen).toEqual(rows.map((r) => r.seq));
    }, 150_000);
  });
});
