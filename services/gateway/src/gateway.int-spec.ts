import { channels, subjects, type BrokerEvent } from '@artemis-studio/contracts';
import {
  type ApiSession,
  type BrokerProfile,
  brokerProfile,
  cleanStream,
  declareLive,
  openAmqpClient,
  openStream,
  rawBrokerEvent,
  signIn,
  type ServiceProcess,
  spawnService,
  testBus,
  testConfig,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import { spawn } from 'node:child_process';

const SECRET = `s3cr3t-${randomUUID()}`;
interface Cluster {
  id: string;
  name: string;
}
const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

describe('gateway against real PostgreSQL and NATS', () => {
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let broker: BrokerProfile;
  const bus = testBus('gateway-test');
  const clusterIds: string[] = [];
  let api: ApiSession;

  const register = async (
    url = gateway.url,
    name = `c-${randomUUID()}`,
    credential?: { username: string; password: string },
  ) => {
    const response = await api.fetch(
      `${url}/api/v1/clusters`,
      json({
        name,
        nodes: [
          {
            name: broker.nodes[0].name,
            jolokiaUrl: broker.nodes[0].jolokiaUrl,
            amqpUrl: broker.nodes[0].amqpUrl,
          },
        ],
        // A planted secret, never sent to the broker as the broker's own user: a wrong password for
        // a real user name locks that user out of the shared test broker for every later test.
        credentials: { jolokia: credential ?? { username: 'planted-user', password: SECRET } },
      }),
    );
    const body = (await response.json()) as Cluster;
    if (response.status === 201) clusterIds.push(body.id);
    return { status: response.status, body };
  };
  const raw = (clusterId: string) => rawBrokerEvent({ clusterId, receivedAt: new Date().toISOString() });
  const publishEvents = (clusterId: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () => raw(clusterId)).map((e) =>
        bus.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), e, { msgId: e.eventId }),
      ),
    );
  const eventIds = (frames: { event: string; id?: string }[]) =>
    frames.filter((f) => f.event === 'events').map((f) => Number(f.id));

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    await bus.ready();
    gateway = await spawnService('gateway', 18480, { SSE_CLIENT_MAX_LAG_MS: '2000' });
    processes.push(gateway, await spawnService('event-store', 18481));
    api = await signIn(gateway.url);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await cleanStream({ clusterIds });
    await bus.close();
  });

  describe('HTTP API', () => {
    it('registers a cluster and never returns or logs its secrets', async () => {
      const { status, body } = await register();
      expect(status).toBe(201);
      expect(body).toMatchObject({
        nodes: [{ name: broker.nodes[0].name }],
        credentials: { jolokia: true, amqp: false },
        notificationRing: true,
      });

      const responses = await Promise.all([
        api.fetch(`${gateway.url}/api/v1/clusters`).then((r) => r.text()),
        api.fetch(`${gateway.url}/api/v1/clusters/${body.id}`).then((r) => r.text()),
      ]);
      for (const text of responses) expect(text).not.toContain(SECRET);
      const detail = JSON.parse(responses[1]) as {
        capabilities: { notifications: unknown };
        owners: unknown;
      };
      expect(detail.capabilities.notifications).toMatchObject({
        status: expect.stringMatching(/UNKNOWN|AVAILABLE|UNAVAILABLE/),
      });
      // Each service's owner, or none yet: never a replica whose lease has lapsed.
      const owners = detail.owners as Record<string, { replica: string; until: string } | null>;
      expect(Object.keys(owners).sort()).toEqual(['notifier', 'scraper']);
      for (const owner of Object.values(owners))
        if (owner) expect(Date.parse(owner.until)).toBeGreaterThan(Date.now() - 5000);
      expect(gateway.output()).not.toContain(SECRET);

      expect((await register(gateway.url, body.name)).status).toBe(409);
      const patched = await api.fetch(`${gateway.url}/api/v1/clusters/${body.id}`, {
        ...json({ name: `${body.name}-2`, notificationRing: false }),
        method: 'PATCH',
      });
      expect(await patched.json()).toMatchObject({ name: `${body.name}-2`, notificationRing: false });
    });

    it.each([
      ['a malformed id', () => api.fetch(`${gateway.url}/api/v1/clusters/not-a-uuid`), 400, 'INVALID_ID'],
      [
        'an unknown cluster',
        () => api.fetch(`${gateway.url}/api/v1/clusters/${randomUUID()}/topology`),
        404,
        'CLUSTER_NOT_FOUND',
      ],
      [
        'an invalid URL',
        () =>
          api.fetch(
            `${gateway.url}/api/v1/clusters`,
            json({ name: 'x', nodes: [{ name: 'a', jolokiaUrl: 'ftp://h' }] }),
          ),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'an oversized body',
        () => api.fetch(`${gateway.url}/api/v1/clusters`, json({ name: 'x'.repeat(200_000), nodes: [] })),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      [
        'malformed JSON',
        () =>
          api.fetch(`${gateway.url}/api/v1/clusters`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: '{nope',
          }),
        400,
        'MALFORMED_JSON',
      ],
      [
        'a bad queue sort',
        async () => api.fetch(`${gateway.url}/api/v1/clusters/${clusterIds[0]}/queues?sort=drop+table`),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a non-numeric Last-Event-ID',
        () =>
          api.fetch(`${gateway.url}/api/v1/stream?clusterId=${clusterIds[0]}`, {
            headers: { 'Last-Event-ID': 'abc' },
          }),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'an unknown setting',
        () => api.fetch(`${gateway.url}/api/v1/settings/nope`),
        404,
        'SETTING_NOT_FOUND',
      ],
      [
        'a setting out of bounds',
        () =>
          api.fetch(`${gateway.url}/api/v1/settings/artemis-studio.events.buffer-size`, {
            ...json({ value: -1 }),
            method: 'PUT',
          }),
        400,
        'VALIDATION_FAILED',
      ],
    ])('answers %s with a JSON 4xx', async (_what, call, status, code) => {
      const response = await call();
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ error: { code, message: expect.any(String) } });
    });

    it('reads and changes runtime settings', async () => {
      const key = 'artemis-studio.events.coalesce-window-millis';
      const put = await api.fetch(`${gateway.url}/api/v1/settings/${key}`, {
        ...json({ value: 750 }),
        method: 'PUT',
      });
      expect(await put.json()).toMatchObject({ key, value: 750, default: 1000, source: 'override' });
      const all = (await (await api.fetch(`${gateway.url}/api/v1/settings`)).json()) as {
        key: string;
        value: number;
      }[];
      expect(all.find((s) => s.key === key)).toMatchObject({ value: 750 });
      await api.fetch(`${gateway.url}/api/v1/settings/${key}`, { ...json({ value: 1000 }), method: 'PUT' });
    });

    it('falls back to the default topics when none of the requested ones is known', async () => {
      const stream = await openStream(
        `${gateway.url}/api/v1/stream?clusterId=${clusterIds[0]}&topics=bogus,nope`,
        api.headers,
      );
      expect(stream.status).toBe(200);
      expect(stream.headers.get('x-accel-buffering')).toBe('no');
      bus.publish(channels.signal, subjects.signal(clusterIds[0], 'queues'), {
        topic: 'queues',
        clusterId: clusterIds[0],
        ts: new Date().toISOString(),
      });
      await waitFor('a queues frame', () => stream.frames.some((f) => f.event === 'queues'));
      stream.close();
    });
  });

  describe('slow clients', () => {
    it('answers a request head dribbled slower than the headers timeout with 408 and closes it', async () => {
      const guarded = await spawnService('gateway', 18487, { HTTP_HEADERS_TIMEOUT_MS: '1000' });
      try {
        const socket = connectTcp({ host: '127.0.0.1', port: 18487 });
        let answer = '';
        // A line written after the server closed draws a reset from its kernel, which can discard
        // the 408 before it is read ("read ECONNRESET" in CI): the dribble stops at the answer's
        // first byte, and a reset after it is the close it already said.
        socket.on('data', (d) => {
          answer += d;
          clearInterval(dribble);
        });
        socket.on('error', () => undefined);
        const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
        const started = Date.now();
        socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
        // A header line every 300 ms, never the blank line that ends the head.
        const dribble = setInterval(
          () => socket.writable && socket.write(`X-Slow-${Date.now()}: 1\r\n`),
          300,
        );
        const closedAt = await closed;
        clearInterval(dribble);
        expect(answer).toMatch(/^HTTP\/1\.1 408/);
        // About the 1 s timeout plus the 1 s check: far below Node's own 60 s default it replaces.
        expect(closedAt - started).toBeLessThan(10_000);
      } finally {
        await guarded.stop();
      }
    });
  });

  describe('stream limits', () => {
    it('refuses streams past the per-address and the total limit with 503 and Retry-After, and admits again once one ends', async () => {
      const limited = await spawnService('gateway', 18486, {
        SSE_MAX_STREAMS: '3',
        SSE_MAX_STREAMS_PER_ADDRESS: '2',
        // Clients told apart by X-Forwarded-For, as behind an ingress.
        HTTP_TRUST_PROXY_HOPS: '1',
      });
      const { body: cluster } = await register();
      const url = `${limited.url}/api/v1/stream?clusterId=${cluster.id}&topics=topology`;
      const from = (address: string) => openStream(url, { ...api.headers, 'X-Forwarded-For': address });
      const a = [await from('10.0.0.1'), await from('10.0.0.1')];
      const refusedA = await from('10.0.0.1');
      const b = await from('10.0.0.2');
      const refusedB = await from('10.0.0.2');
      expect([...a, b].map((s) => s.status)).toEqual([200, 200, 200]);
      for (const refused of [refusedA, refusedB]) {
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('5');
      }
      const body = (await (await api.fetch(url, { headers: { 'X-Forwarded-For': '10.0.0.1' } })).json()) as {
        error: { code: string; message: string };
      };
      expect(body.error).toMatchObject({
        code: 'TOO_MANY_STREAMS',
        message: expect.stringMatching(/as many streams/),
      });
      a[0].close();
      const again = await waitFor('a stream admitted once one ended', async () => {
        const stream = await from('10.0.0.3');
        if (stream.status === 200) return stream;
        stream.close();
        return undefined;
      });
      const refused = (await (await api.fetch(`${limited.url}/metrics`)).text()).match(
        /studio_gateway_stream_refused_total\{limit="(total|address)"[^}]*\} (\d+)/g,
      );
      expect(refused).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/address.* 1$/),
          expect.stringMatching(/total.* [2-9]/),
        ]),
      );
      [a[1], b, again].forEach((s) => s.close());
      await limited.stop();
    });
  });

  describe('streams across replicas', () => {
    let second: ServiceProcess;
    beforeAll(async () => {
      second = await spawnService('gateway', 18482);
      processes.push(second);
    });

    it('delivers one signal, published once, to the clients of both replicas', async () => {
      const { body } = await register();
      const streams = await Promise.all(
        [gateway, second].map((g) =>
          openStream(`${g.url}/api/v1/stream?clusterId=${body.id}&topics=topology`, api.headers),
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
      bus.publish(channels.signal, subjects.signal(body.id, 'topology'), {
        topic: 'topology',
        clusterId: body.id,
        ts: new Date().toISOString(),
      });
      for (const stream of streams)
        await waitFor('the signal on each replica', () => stream.frames.some((f) => f.event === 'topology'));
      streams.forEach((s) => s.close());
    });

    it('replays exactly the missed events, in order, when a client moves to the other replica while events flow', async () => {
      const { body } = await register();
      const first = await openStream(
        `${gateway.url}/api/v1/stream?clusterId=${body.id}&topics=events`,
        api.headers,
      );
      await new Promise((r) => setTimeout(r, 300));
      await publishEvents(body.id, 50);
      await waitFor('50 events on the first replica', () => eventIds(first.frames).length === 50);
      first.close();
      const lastSeen = eventIds(first.frames).at(-1)!;

      await publishEvents(body.id, 30); // missed while away
      let flowing = true;
      const flow = (async () => {
        while (flowing) {
          await publishEvents(body.id, 5);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const moved = await openStream(`${second.url}/api/v1/stream?clusterId=${body.id}&topics=events`, {
        ...api.headers,
        'Last-Event-ID': String(lastSeen),
      });
      await new Promise((r) => setTimeout(r, 1000));
      flowing = false;
      await flow;
      const latest = (await (
        await api.fetch(`${gateway.url}/api/v1/clusters/${body.id}/events?limit=1`)
      ).json()) as { items: BrokerEvent[] };
      const total = latest.items[0].seq;
      await waitFor('every event up to the last', () => eventIds(moved.frames).at(-1) === total);
      moved.close();

      const history = (await (
        await api.fetch(`${gateway.url}/api/v1/clusters/${body.id}/events?limit=500`)
      ).json()) as { items: BrokerEvent[]; dropped: number };
      const allSeqs = history.items.map((e) => e.seq).reverse();
      expect(eventIds(moved.frames)).toEqual(allSeqs.filter((s) => s > lastSeen));
      expect(history.dropped).toBe(0);
    });

    it('says how many events a reconnecting client will not get when its gap is larger than the replay cap', async () => {
      const { body } = await register();
      const cap = 'artemis-studio.stream.replay-cap';
      await api.fetch(`${gateway.url}/api/v1/settings/${cap}`, { ...json({ value: 20 }), method: 'PUT' });
      try {
        const first = await openStream(
          `${gateway.url}/api/v1/stream?clusterId=${body.id}&topics=events`,
          api.headers,
        );
        await new Promise((r) => setTimeout(r, 300));
        await publishEvents(body.id, 5);
        await waitFor('5 events', () => eventIds(first.frames).length === 5);
        first.close();
        const lastSeen = eventIds(first.frames).at(-1)!;
        await publishEvents(body.id, 50);
        const history = async () =>
          (
            (await (
              await api.fetch(`${gateway.url}/api/v1/clusters/${body.id}/events?limit=100`)
            ).json()) as {
              items: BrokerEvent[];
            }
          ).items;
        await waitFor('55 events stored', async () => (await history()).length === 55);

        const back = await openStream(`${gateway.url}/api/v1/stream?clusterId=${body.id}&topics=events`, {
          ...api.headers,
          'Last-Event-ID': String(lastSeen),
        });
        await waitFor('the replay', () => eventIds(back.frames).length === 20);
        back.close();
        const newest20 = (await history())
          .slice(0, 20)
          .map((e) => e.seq)
          .reverse();
        expect(back.frames[0].event).toBe('replay-gap');
        expect(JSON.parse(back.frames[0].data)).toEqual({
          clusterId: body.id,
          lastEventId: lastSeen,
          replayFrom: newest20[0],
          missed: 30,
          reason: 'replay-cap',
        });
        expect(eventIds(back.frames)).toEqual(newest20);
      } finally {
        await api.fetch(`${gateway.url}/api/v1/settings/${cap}`, { ...json({ value: 500 }), method: 'PUT' });
      }
    });

    it('ends the streams of a removed cluster on every replica with a cluster-removed frame', async () => {
      const { body } = await register();
      const streams = await Promise.all(
        [gateway, second].map((g) =>
          openStream(`${g.url}/api/v1/stream?clusterId=${body.id}&topics=queues`, api.headers),
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(
        (await api.fetch(`${gateway.url}/api/v1/clusters/${body.id}`, { method: 'DELETE' })).status,
      ).toBe(204);
      for (const stream of streams) {
        await waitFor('the stream to end', () => stream.ended(), { timeoutMs: 5000 });
        expect(stream.frames.map((f) => f.event)).toEqual(['cluster-removed']);
        expect(JSON.parse(stream.frames[0].data)).toMatchObject({ clusterId: body.id });
      }
    });

    it('cuts off a client that stopped reading without slowing a fast client', async () => {
      const { body } = await register();
      const fast = await openStream(
        `${gateway.url}/api/v1/stream?clusterId=${body.id}&topics=queues`,
        api.headers,
      );
      // A reader that never reads, with a small receive buffer: Node cannot set SO_RCVBUF, and
      // loopback autotunes a paused socket's buffer to tens of MB.
      const stalled = spawn('python3', [
        '-c',
        [
          'import socket, sys, time',
          's = socket.socket()',
          's.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)',
          "s.connect(('127.0.0.1', int(sys.argv[1])))",
          "s.sendall(('GET ' + sys.argv[2] + ' HTTP/1.1\\r\\nHost: x\\r\\nCookie: ' + sys.argv[3] + '\\r\\nAccept: text/event-stream\\r\\n\\r\\n').encode())",
          'time.sleep(120)',
        ].join('\n'),
        '18480',
        `/api/v1/stream?clusterId=${body.id}&topics=queues`,
        api.headers.Cookie!,
      ]);
      await new Promise((r) => setTimeout(r, 500));

      const metric = async (name: string) =>
        Number(
          (await (await api.fetch(`${gateway.url}/metrics`)).text()).match(
            new RegExp(`${name}\\{[^}]*\\} (\\d+)`),
          )?.[1] ?? 0,
        );
      const slowBefore = await metric('studio_gateway_stream_slow_disconnects_total');
      const framesBefore = await metric('studio_gateway_stream_frames_total');
      const signal = { topic: 'queues' as const, clusterId: body.id, ts: new Date().toISOString() };
      // Paced, so the gateway's own NATS subscription keeps up (core NATS drops for slow subscribers).
      // More than loopback's socket buffers absorb (several MB), so the stalled client builds a backlog.
      for (let i = 0; i < 150_000; i++) {
        bus.publish(channels.signal, subjects.signal(body.id, 'queues'), signal);
        if (i % 1000 === 999) {
          await bus.flush();
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      await waitFor(
        'the fast client to receive every frame',
        () => fast.frames.filter((f) => f.event === 'queues').length === 150_000,
        { timeoutMs: 40_000 },
      );
      await waitFor(
        'the stalled client cut off',
        async () => (await metric('studio_gateway_stream_slow_disconnects_total')) === slowBefore + 1,
        { timeoutMs: 10_000 },
      );
      expect((await metric('studio_gateway_stream_frames_total')) - framesBefore).toBeGreaterThanOrEqual(
        150_000,
      );
      fast.close();
      stalled.kill();
    }, 60_000);
  });

  describe('end to end with a real broker', () => {
    it('a receiver attaching on the broker reaches an SSE client as an events frame and a coalesced consumers signal', async () => {
      const notifier = await spawnService('notifier', 18483, { LEASE_TTL_MS: '3000' });
      processes.push(notifier);
      const { body } = await register(gateway.url, undefined, {
        username: broker.user,
        password: broker.password,
      });
      // The scraper's part, said directly: the broker is live.
      await declareLive(bus, body.id, broker);
      const status = async () =>
        (
          (await (await api.fetch(`${gateway.url}/api/v1/clusters/${body.id}`)).json()) as {
            capabilities: { notifications: { status: string } };
          }
        ).capabilities.notifications.status;
      await waitFor('the notifier subscribed', async () => (await status()) === 'AVAILABLE', {
        timeoutMs: 30_000,
      });
      const stream = await openStream(
        `${gateway.url}/api/v1/stream?clusterId=${body.id}&topics=events,consumers`,
        api.headers,
      );
      await new Promise((r) => setTimeout(r, 300));

      const queue = `e2e.${randomUUID()}`;
      const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
      const frame = await waitFor('the CONSUMER_CREATED frame', () =>
        stream.frames.find(
          (f) =>
            f.event === 'events' &&
            JSON.parse(f.data).queue === queue &&
            JSON.parse(f.data).type === 'CONSUMER_CREATED',
        ),
      );
      expect(JSON.parse(frame.data)).toMatchObject({
        type: 'CONSUMER_CREATED',
        clusterId: body.id,
        seq: Number(frame.id),
      });
      await waitFor('a consumers signal', () => stream.frames.some((f) => f.event === 'consumers'));
      await client.close();
      stream.close();
    }, 90_000);
  });
});
