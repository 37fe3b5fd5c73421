import { rpcs, subjects } from '@artemis-studio/contracts';
import { SettingsRepository } from '@artemis-studio/platform';
import { testConfig, waitFor } from '@artemis-studio/testing';
import { connect } from 'nats';
import { randomUUID } from 'node:crypto';
import { EventStoreStack } from './event-store-stack.fixture';

describe('the event store’s drops and back-pressure against real PostgreSQL and NATS', () => {
  const stack = new EventStoreStack();

  beforeAll(async () => {
    await stack.start();
    await stack.startInProcess();
  });
  afterAll(() => stack.stop());

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
    expect(await stack.bus.request(rpcs.recordDrops, report)).toEqual({ dropped: 7 });
    expect(await stack.bus.request(rpcs.recordDrops, report)).toEqual({ dropped: 7 });
    expect(
      await stack.bus.request(rpcs.recordDrops, { ...report, reportId: randomUUID(), count: 3 }),
    ).toEqual({
      dropped: 10,
    });
    expect((await stack.bus.request(rpcs.eventsHistory, { clusterId, query: { limit: 10 } })).dropped).toBe(
      10,
    );
  });

  it("says when the drops happened, per source, from the reports' own times", async () => {
    const clusterId = randomUUID();
    const report = (
      source: 'notifier' | 'stream' | 'broker-ring',
      count: number,
      ts: string,
      from?: string,
    ) =>
      stack.bus.request(rpcs.recordDrops, {
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
    const page = await stack.bus.request(rpcs.eventsHistory, { clusterId, query: { limit: 1 } });
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
    try {
      const jsm = await nc.jetstreamManager();
      const consumer = () => jsm.consumers.info('STUDIO_EVENTS', 'event-store');
      const malformed = () =>
        fetch(`${stack.store!.url}/metrics`).then(async (r) =>
          Number(
            (await r.text()).match(
              /studio_bus_malformed_messages_total\{channel="event.raw"[^}]*\} (\d+)/,
            )?.[1] ?? 0,
          ),
        );
      // A suite before may have stopped an event store mid-batch: its deliveries stay unacknowledged
      // until the durable's 60 s ack wait lapses, then come back as redeliveries. Wait them out, so
      // the counts below are this message's alone.
      await waitFor(
        'the durable consumer settled',
        async () => {
          const settled = await consumer();
          return settled.num_ack_pending === 0 && settled.num_pending === 0;
        },
        { timeoutMs: 75_000 },
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
    } finally {
      await nc.close();
    }
  }, 100_000);

  it('loses nothing when its buffer is full: the overflow stays in the stream and is written later', async () => {
    const settings = new SettingsRepository(stack.db);
    await settings.put('artemis-studio.events.buffer-size', 20);
    try {
      await waitFor('the setting in force', async () => {
        const text = await (await fetch(`${stack.store!.url}/metrics`)).text();
        return text.includes('studio_event_store_writer');
      });
      await new Promise((r) => setTimeout(r, 2500)); // settings refresh every 2 s
      const clusterId = randomUUID();
      const deferred = async () =>
        Number(
          (await (await fetch(`${stack.store!.url}/metrics`)).text()).match(
            /studio_event_store_deferred_total\{[^}]*\} (\d+)/,
          )?.[1] ?? 0,
        );
      const before = await deferred();
      await stack.publish(clusterId, 2000, { inFlight: 1000 });
      await waitFor('all 2,000 written', async () => (await stack.countOf(clusterId)) === 2000, {
        timeoutMs: 60_000,
      });
      expect(await deferred()).toBeGreaterThan(before);
      expect((await stack.bus.request(rpcs.eventsHistory, { clusterId, query: { limit: 1 } })).dropped).toBe(
        0,
      );
    } finally {
      await settings.reset('artemis-studio.events.buffer-size');
    }
  }, 90_000);
});
