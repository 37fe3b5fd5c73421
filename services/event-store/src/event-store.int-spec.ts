import { channels, rpcs, subjects, type BrokerEvent } from '@artemis-studio/contracts';
import { waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { RetentionService } from './retention/retention.service';
import { EventStoreStack, rawEvent } from './event-store-stack.fixture';

describe('the event store in process against real PostgreSQL and NATS', () => {
  const stack = new EventStoreStack();

  beforeAll(async () => {
    await stack.start();
    await stack.startInProcess();
  });
  afterAll(() => stack.stop());

  it('persists 10,000 events exactly once, seq increasing, and publishes them stored in order', async () => {
    const clusterId = randomUUID();
    const published: BrokerEvent[] = [];
    const unsubscribe = stack.bus.subscribe(
      channels.eventStored,
      subjects.eventStored(clusterId),
      (e) => void published.push(e),
    );
    const events = await stack.publish(clusterId, 10_000);

    await waitFor('10,000 stored events published', () => published.length >= 10_000, {
      timeoutMs: 60_000,
    });
    unsubscribe();
    const rows = await stack.stored(clusterId);
    expect(rows).toHaveLength(10_000);
    expect(new Set(rows.map((r) => r.eventId))).toEqual(new Set(events.map((e) => e.eventId)));
    expect(published.map((e) => e.seq)).toEqual(rows.map((r) => r.seq));
    for (let i = 1; i < published.length; i++) expect(published[i].seq).toBeGreaterThan(published[i - 1].seq);
  }, 90_000);

  it('replays exactly the events after a cursor, at most 500, and pages history by seq', async () => {
    const clusterId = randomUUID();
    await stack.publish(clusterId, 700);
    await waitFor('700 stored', async () => (await stack.countOf(clusterId)) === 700);
    const rows = await stack.stored(clusterId);

    const { events } = await stack.bus.request(rpcs.eventsSince, {
      clusterId,
      afterSeq: rows[99].seq,
      limit: 500,
    });
    expect(events.map((e) => e.seq)).toEqual(rows.slice(100, 600).map((r) => r.seq));
    const newest = await stack.bus.request(rpcs.eventsSince, {
      clusterId,
      afterSeq: rows[99].seq,
      limit: 500,
      newest: true,
    });
    expect(newest.events.map((e) => e.seq)).toEqual(rows.slice(200).map((r) => r.seq));
    expect(newest.skipped).toBe(100);
    const newestAll = await stack.bus.request(rpcs.eventsSince, {
      clusterId,
      afterSeq: rows[299].seq,
      limit: 500,
      newest: true,
    });
    expect(newestAll).toMatchObject({ skipped: 0 });
    expect(newestAll.events).toHaveLength(400);
    const tail = await stack.bus.request(rpcs.eventsSince, {
      clusterId,
      afterSeq: rows[649].seq,
      limit: 500,
    });
    expect(tail.events.map((e) => e.seq)).toEqual(rows.slice(650).map((r) => r.seq));
    expect(await stack.bus.request(rpcs.newestSeq, { clusterId })).toEqual({ seq: rows[699].seq });
    expect(await stack.bus.request(rpcs.newestSeq, { clusterId: randomUUID() })).toEqual({ seq: 0 });

    const page1 = await stack.bus.request(rpcs.eventsHistory, {
      clusterId,
      query: { limit: 300, queue: 'q3' },
    });
    expect(page1.items.every((e) => e.queue === 'q3')).toBe(true);
    expect(page1.items.map((e) => e.seq)).toEqual([...page1.items.map((e) => e.seq)].sort((a, b) => b - a));
    expect(page1).toMatchObject({ nextCursor: null, dropped: 0 });
    const byType = await stack.bus.request(rpcs.eventsHistory, {
      clusterId,
      query: { limit: 200, type: 'CONSUMER_CREATED' },
    });
    expect(byType.items).toHaveLength(200);
    const next = await stack.bus.request(rpcs.eventsHistory, {
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
    const runner = stack.db.createQueryRunner();
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
      await stack.bus.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), e, {
        msgId: e.eventId,
      });
    }
    await waitFor('3 stored', async () => (await stack.countOf(clusterId)) === 3);
    const { removed } = await stack.bus.request(rpcs.reapEvents, {});
    expect(removed).toBeGreaterThanOrEqual(2);
    expect(await stack.countOf(clusterId)).toBe(1);
  });

  it('makes the days ahead of the clock, a missing one again at its hourly run (ADR-0025)', async () => {
    // The migration makes today and tomorrow; the day after is the keeper's.
    const dayAfter = `broker_event_p${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10).replace(/\D/g, '')}`;
    const present = async () =>
      (await stack.db.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [dayAfter]))[0]
        .present as boolean;
    await stack.db.query(`DROP TABLE IF EXISTS ${dayAfter}`);
    expect(await present()).toBe(false);
    await stack.store!.app.get(RetentionService).keepHourly();
    expect(await present()).toBe(true);
  });
});
