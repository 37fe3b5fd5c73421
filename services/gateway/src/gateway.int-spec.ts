import { channels, subjects } from '@artemis-studio/contracts';
import { openStream, spawnService, waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { connect as connectTcp } from 'node:net';
import { GatewayStack, SECRET, json } from './gateway-stack.fixture';

describe('gateway against real PostgreSQL and NATS', () => {
  const stack = new GatewayStack();

  beforeAll(() => stack.start(), 60_000);
  afterAll(() => stack.stop());

  describe('HTTP API', () => {
    it('registers a cluster and never returns or logs its secrets', async () => {
      const { status, body } = await stack.register();
      expect(status).toBe(201);
      expect(body).toMatchObject({
        nodes: [{ name: stack.broker.nodes[0].name }],
        credentials: { jolokia: true, amqp: false },
        notificationRing: true,
      });

      const responses = await Promise.all([
        stack.api.fetch(`${stack.gateway.url}/api/v1/clusters`).then((r) => r.text()),
        stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/${body.id}`).then((r) => r.text()),
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
      expect(stack.gateway.output()).not.toContain(SECRET);

      expect((await stack.register(stack.gateway.url, body.name)).status).toBe(409);
      const patched = await stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/${body.id}`, {
        ...json({ name: `${body.name}-2`, notificationRing: false }),
        method: 'PATCH',
      });
      expect(await patched.json()).toMatchObject({ name: `${body.name}-2`, notificationRing: false });
    });

    it.each([
      [
        'a malformed id',
        () => stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/not-a-uuid`),
        400,
        'INVALID_ID',
      ],
      [
        'an unknown cluster',
        () => stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/${randomUUID()}/topology`),
        404,
        'CLUSTER_NOT_FOUND',
      ],
      [
        'an invalid URL',
        () =>
          stack.api.fetch(
            `${stack.gateway.url}/api/v1/clusters`,
            json({ name: 'x', nodes: [{ name: 'a', jolokiaUrl: 'ftp://h' }] }),
          ),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'an oversized body',
        () =>
          stack.api.fetch(
            `${stack.gateway.url}/api/v1/clusters`,
            json({ name: 'x'.repeat(200_000), nodes: [] }),
          ),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      [
        'malformed JSON',
        () =>
          stack.api.fetch(`${stack.gateway.url}/api/v1/clusters`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: '{nope',
          }),
        400,
        'MALFORMED_JSON',
      ],
      [
        'a bad queue sort',
        async () =>
          stack.api.fetch(
            `${stack.gateway.url}/api/v1/clusters/${stack.clusterIds[0]}/queues?sort=drop+table`,
          ),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a non-numeric Last-Event-ID',
        () =>
          stack.api.fetch(`${stack.gateway.url}/api/v1/stream?clusterId=${stack.clusterIds[0]}`, {
            headers: { 'Last-Event-ID': 'abc' },
          }),
        400,
        'VALIDATION_FAILED',
      ],
      [
        'an unknown setting',
        () => stack.api.fetch(`${stack.gateway.url}/api/v1/settings/nope`),
        404,
        'SETTING_NOT_FOUND',
      ],
      [
        'a setting out of bounds',
        () =>
          stack.api.fetch(`${stack.gateway.url}/api/v1/settings/artemis-studio.events.buffer-size`, {
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
      const put = await stack.api.fetch(`${stack.gateway.url}/api/v1/settings/${key}`, {
        ...json({ value: 750 }),
        method: 'PUT',
      });
      expect(await put.json()).toMatchObject({ key, value: 750, default: 1000, source: 'override' });
      const all = (await (await stack.api.fetch(`${stack.gateway.url}/api/v1/settings`)).json()) as {
        key: string;
        value: number;
      }[];
      expect(all.find((s) => s.key === key)).toMatchObject({ value: 750 });
      await stack.api.fetch(`${stack.gateway.url}/api/v1/settings/${key}`, {
        ...json({ value: 1000 }),
        method: 'PUT',
      });
    });

    it('falls back to the default topics when none of the requested ones is known', async () => {
      const stream = await openStream(
        `${stack.gateway.url}/api/v1/stream?clusterId=${stack.clusterIds[0]}&topics=bogus,nope`,
        stack.api.headers,
      );
      expect(stream.status).toBe(200);
      expect(stream.headers.get('x-accel-buffering')).toBe('no');
      stack.bus.publish(channels.signal, subjects.signal(stack.clusterIds[0], 'queues'), {
        topic: 'queues',
        clusterId: stack.clusterIds[0],
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
      const { body: cluster } = await stack.register();
      const url = `${limited.url}/api/v1/stream?clusterId=${cluster.id}&topics=topology`;
      const from = (address: string) => openStream(url, { ...stack.api.headers, 'X-Forwarded-For': address });
      const a = [await from('10.0.0.1'), await from('10.0.0.1')];
      const refusedA = await from('10.0.0.1');
      const b = await from('10.0.0.2');
      const refusedB = await from('10.0.0.2');
      expect([...a, b].map((s) => s.status)).toEqual([200, 200, 200]);
      for (const refused of [refusedA, refusedB]) {
        expect(refused.status).toBe(503);
        expect(refused.headers.get('retry-after')).toBe('5');
      }
      const body = (await (
        await stack.api.fetch(url, { headers: { 'X-Forwarded-For': '10.0.0.1' } })
      ).json()) as {
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
      const refused = (await (await stack.api.fetch(`${limited.url}/metrics`)).text()).match(
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
});
