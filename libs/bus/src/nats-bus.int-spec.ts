import { RawBrokerEvent, buckets, channels, rpcs, subjects, type ReplyOf } from '@artemis-studio/contracts';
import { cleanStream, testConfig, waitFor } from '@artemis-studio/testing';
import { RequestStrategy, connect } from 'nats';
import { randomUUID } from 'node:crypto';
import { RpcError, Stoppable } from './bus';
import { NatsBus } from './nats-bus';
import { CountingMetrics, quiet, rawEvent } from './nats-bus.fixture';

describe('NatsBus against real NATS', () => {
  const metrics = new CountingMetrics();
  // Connected in beforeAll, not here: Jest skips the hooks of a block whose tests `-t` leaves out,
  // and a bus made while the file is read stayed connected and held the run open.
  let sut: NatsBus;
  const cleanup: Stoppable[] = [];
  /** A raw client, to send what our bus would refuse to send. */
  let raw: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    sut = new NatsBus({ servers: testConfig.natsUrl, name: 'bus-test', metrics, log: quiet });
    await sut.ready();
    raw = await connect({ servers: testConfig.natsUrl });
  });

  afterAll(async () => {
    for (const c of cleanup) await c.stop();
    await raw.close();
    await sut.close();
  });

  it('reports its connection state for readiness', () => {
    expect(sut.state).toBe('connected');
  });

  it('delivers valid signals and counts and skips a malformed one without calling the handler', async () => {
    const clusterId = randomUUID();
    const received: unknown[] = [];
    const unsubscribe = sut.subscribe(channels.signal, `studio.v1.cluster.${clusterId}.signal.*`, (s) => {
      received.push(s);
    });
    await raw.flush();
    await new Promise((r) => setTimeout(r, 100));
    const before = metrics.counts['malformed:signal'] ?? 0;

    raw.publish(subjects.signal(clusterId, 'queues'), new TextEncoder().encode('{"topic":"bogus"}'));
    raw.publish(subjects.signal(clusterId, 'queues'), new TextEncoder().encode('not json'));
    const signal = { topic: 'queues' as const, clusterId, ts: new Date().toISOString() };
    expect(sut.publish(channels.signal, subjects.signal(clusterId, 'queues'), signal)).toBe(true);

    await waitFor('the valid signal', () => received.length === 1);
    expect(received).toEqual([signal]);
    expect(metrics.counts['malformed:signal']).toBe(before + 2);
    unsubscribe();
  });

  it('round-trips events through the STUDIO_EVENTS stream with a durable consumer, skipping a malformed one', async () => {
    const clusterId = randomUUID();
    const durable = `bus-test-${randomUUID().slice(0, 8)}`;
    const events = [0, 1, 2].map((n) => rawEvent(clusterId, n));
    const got: RawBrokerEvent[] = [];

    await sut.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), events[0], {
      msgId: events[0].eventId,
    });
    const js = raw.jetstream();
    await js.publish(subjects.eventRaw(clusterId), new TextEncoder().encode('{"clusterId":42}'));
    await sut.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), events[1], {
      msgId: events[1].eventId,
    });
    // A retried publish with the same message id is a duplicate JetStream discards.
    const retry = await sut.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), events[1], {
      msgId: events[1].eventId,
    });
    expect(retry.duplicate).toBe(true);
    await sut.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), events[2], {
      msgId: events[2].eventId,
    });

    const before = metrics.counts['malformed:event.raw'] ?? 0;
    const consumer = sut.consume(
      channels.eventRaw,
      { durable, filterSubject: subjects.eventRaw(clusterId), ackWaitMs: 2000 },
      (event, delivery) => {
        got.push(event);
        delivery.ack();
      },
    );
    cleanup.push(consumer);

    await waitFor('three valid events', () => got.length === 3);
    expect(got.map((e) => e.eventId)).toEqual(events.map((e) => e.eventId));
    expect(metrics.counts['malformed:event.raw']).toBe(before + 1);

    // The malformed message was terminated, not left to be redelivered: nothing is pending.
    await new Promise((r) => setTimeout(r, 2500));
    const info = await (await raw.jetstreamManager()).consumers.info('STUDIO_EVENTS', durable);
    expect(info.num_ack_pending).toBe(0);
    expect(info.num_pending).toBe(0);
    expect(got).toHaveLength(3);
    await consumer.stop();
    await cleanStream({ clusterIds: [clusterId], durables: [durable] });
  });

  it('stops a consumer mid-stream without leaving what the server sent it to the acknowledgement window', async () => {
    const clusterId = randomUUID();
    const durable = `bus-test-${randomUUID().slice(0, 8)}`;
    const total = 20_000;
    for (let n = 0; n < total; n += 1000) {
      await Promise.all(
        Array.from({ length: 1000 }, (_, i) => {
          const event = rawEvent(clusterId, n + i);
          return sut.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), event, {
            msgId: event.eventId,
          });
        }),
      );
    }
    const read = (seen: Set<number>) =>
      sut.consume(
        channels.eventRaw,
        // The default window is 30 s: what a stop leaves unseen would come back after it.
        { durable, filterSubject: subjects.eventRaw(clusterId) },
        (_event, delivery) => {
          seen.add(delivery.streamSeq);
          delivery.ack();
        },
      );

    const first = new Set<number>();
    const stoppedEarly = read(first);
    await waitFor('the first reader mid-stream', () => first.size >= 2_000);
    await stoppedEarly.stop();
    expect(first.size).toBeLessThan(total);
    await raw.flush();
    const info = await (await raw.jetstreamManager()).consumers.info('STUDIO_EVENTS', durable);
    // Before: 700 to 1,000 delivered to a pull closed under them, held until the window ran out.
    expect(info.num_ack_pending).toBe(0);

    const second = new Set<number>();
    const next = read(second);
    cleanup.push(next);
    await waitFor('the rest, long before the window', () => first.size + second.size >= total, {
      timeoutMs: 10_000,
    });
    expect([...second].filter((seq) => first.has(seq))).toEqual([]);
    await next.stop();
    await cleanStream({ clusterIds: [clusterId], durables: [durable] });
  });

  it('publishes durably many at once, each acknowledged with its own seq, and refuses a subject no stream captures', async () => {
    const clusterId = randomUUID();
    const events = Array.from({ length: 500 }, (_, n) => rawEvent(clusterId, n));
    const acks = await Promise.all(
      events.map((e) =>
        sut.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), e, { msgId: e.eventId }),
      ),
    );
    const seqs = acks.map((a) => a.seq);
    expect(new Set(seqs).size).toBe(500);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(acks.every((a) => !a.duplicate)).toBe(true);
    const again = await sut.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), events[7], {
      msgId: events[7].eventId,
    });
    expect(again).toEqual({ seq: seqs[7], duplicate: true });

    await expect(
      sut.publishDurable(channels.eventRaw, `not.captured.${clusterId}`, events[0], { msgId: randomUUID() }),
    ).rejects.toThrow(/no responders/);
    await cleanStream({ clusterIds: [clusterId] });
  });

  it('answers requests in a queue group and carries errors in headers', async () => {
    const clusterId = randomUUID();
    const stop = sut.serve(rpcs.eventsSince, async (req) => {
      if (req.afterSeq === 13) throw new RpcError(404, 'no such cluster');
      return { events: [] };
    });
    await new Promise((r) => setTimeout(r, 100));

    await expect(sut.request(rpcs.eventsSince, { clusterId, afterSeq: 0, limit: 10 })).resolves.toEqual({
      events: [],
    });
    await expect(sut.request(rpcs.eventsSince, { clusterId, afterSeq: 13, limit: 10 })).rejects.toMatchObject(
      {
        code: 404,
        message: 'no such cluster',
      },
    );
    // A malformed request is refused by the server, not passed to the handler.
    const reply = await raw.request('studio.v1.rpc.event-store.since', new TextEncoder().encode('{}'), {
      timeout: 2000,
    });
    expect(reply.headers?.get('Nats-Service-Error-Code')).toBe('400');
    stop();
    await new Promise((r) => setTimeout(r, 100));
    await expect(
      sut.request(rpcs.eventsSince, { clusterId, afterSeq: 0, limit: 10 }, { timeoutMs: 500 }),
    ).rejects.toMatchObject({
      code: 503,
    });
  });

  it('refuses a reply that breaks the contract at its server, or unchecked there, at its requester', async () => {
    // Each on an RPC nothing else here serves: a served endpoint stays in its shared service.
    const clusterId = randomUUID();
    const stopChecked = sut.serve(rpcs.newestSeq, async () => ({ seq: -1 }));
    const brokenPage = { items: [{ seq: -1 }] } as unknown as ReplyOf<typeof rpcs.eventsHistory>;
    const stopUnchecked = sut.serve(rpcs.eventsHistory, async () => brokenPage, { checkReply: false });
    await sut.flush();
    await expect(sut.request(rpcs.newestSeq, { clusterId })).rejects.toMatchObject({ code: 500 });
    expect(metrics.counts['failed:event-store.newest-seq']).toBe(1);
    await expect(sut.request(rpcs.eventsHistory, { clusterId, query: { limit: 10 } })).rejects.toMatchObject({
      code: 502,
    });
    expect(metrics.counts['malformed:event-store.history reply']).toBe(1);
    stopChecked();
    stopUnchecked();
  });

  it('announces what it serves to NATS service discovery, as `nats micro ls` reads it', async () => {
    const clusterId = randomUUID();
    const discovered = async () => {
      const endpoints: string[] = [];
      for await (const info of await raw.services
        .client({ strategy: RequestStrategy.Timer, maxWait: 500 })
        .info('bus-test'))
        endpoints.push(...info.endpoints.map((e) => `${info.version} ${e.name} ${e.subject}`));
      return endpoints.sort();
    };
    const stopReap = sut.serve(rpcs.reapEvents, async () => ({ removed: 0 }));
    const stopList = sut.serve(
      rpcs.liveList,
      async () => ({ items: [], total: 0, page: 1, pageSize: 1, partial: false, nodeErrors: [] }),
      { key: clusterId },
    );
    await waitFor('both endpoints discovered', async () => (await discovered()).length >= 2);
    expect(await discovered()).toEqual(
      expect.arrayContaining([
        '0.1.0 event-store-reap studio.v1.rpc.event-store.reap',
        `0.1.0 scraper-live-list studio.v1.rpc.scraper.live-list.${clusterId}`,
      ]),
    );
    // A cluster let go is no longer announced (its service instance stops with it).
    stopList();
    await waitFor('the keyed endpoint gone', async () =>
      (await discovered()).every((e) => !e.includes(clusterId)),
    );
    stopReap();
  });

  it('stores, compares-and-sets and watches typed KV values', async () => {
    const kv = await sut.kv(buckets.capabilities);
    const key = randomUUID();
    const seen: unknown[] = [];
    const watch = kv.watch((k, v) => {
      if (k === key) seen.push(v);
    });
    cleanup.push(watch);
    const verdict = {
      status: 'UNKNOWN' as const,
      reason: 'first reconcile pending',
      asOf: new Date().toISOString(),
    };

    const revision = await kv.create(key, verdict);
    expect(revision).toEqual(expect.any(Number));
    expect(await kv.create(key, verdict)).toBeNull();
    expect(await kv.update(key, { ...verdict, status: 'AVAILABLE' }, revision!)).toEqual(expect.any(Number));
    expect(await kv.update(key, verdict, revision!)).toBeNull();
    expect((await kv.get(key))?.value.status).toBe('AVAILABLE');
    await kv.delete(key);
    expect(await kv.get(key)).toBeNull();
    await waitFor('the watcher to see put, update and delete', () => seen.length === 3);
    expect(seen[2]).toBeNull();
  });
});
