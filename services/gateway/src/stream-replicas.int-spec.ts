import { channels, subjects, type BrokerEvent } from '@artemis-studio/contracts';
import {
  declareLive,
  openAmqpClient,
  openStream,
  type ServiceProcess,
  spawnService,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { GatewayStack, json } from './gateway-stack.fixture';

describe('the stream across gateway replicas and from a real broker', () => {
  const stack = new GatewayStack();

  beforeAll(() => stack.start(), 60_000);
  afterAll(() => stack.stop());

  describe('streams across replicas', () => {
    let second: ServiceProcess;
    beforeAll(async () => {
      second = await spawnService('gateway', 18482);
      stack.processes.push(second);
    });

    it('delivers one signal, published once, to the clients of both replicas', async () => {
      const { body } = await stack.register();
      const streams = await Promise.all(
        [stack.gateway, second].map((g) =>
          openStream(`${g.url}/api/v1/stream?clusterId=${body.id}&topics=topology`, stack.api.headers),
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
      stack.bus.publish(channels.signal, subjects.signal(body.id, 'topology'), {
        topic: 'topology',
        clusterId: body.id,
        ts: new Date().toISOString(),
      });
      for (const stream of streams)
        await waitFor('the signal on each replica', () => stream.frames.some((f) => f.event === 'topology'));
      streams.forEach((s) => s.close());
    });

    it('replays exactly the missed events, in order, when a client moves to the other replica while events flow', async () => {
      const { body } = await stack.register();
      const first = await openStream(
        `${stack.gateway.url}/api/v1/stream?clusterId=${body.id}&topics=events`,
        stack.api.headers,
      );
      await new Promise((r) => setTimeout(r, 300));
      await stack.publishEvents(body.id, 50);
      await waitFor('50 events on the first replica', () => stack.eventIds(first.frames).length === 50);
      first.close();
      const lastSeen = stack.eventIds(first.frames).at(-1)!;

      await stack.publishEvents(body.id, 30); // missed while away
      let flowing = true;
      const flow = (async () => {
        while (flowing) {
          await stack.publishEvents(body.id, 5);
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
      const moved = await openStream(`${second.url}/api/v1/stream?clusterId=${body.id}&topics=events`, {
        ...stack.api.headers,
        'Last-Event-ID': String(lastSeen),
      });
      await new Promise((r) => setTimeout(r, 1000));
      flowing = false;
      await flow;
      const latest = (await (
        await stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/${body.id}/events?limit=1`)
      ).json()) as { items: BrokerEvent[] };
      const total = latest.items[0].seq;
      await waitFor('every event up to the last', () => stack.eventIds(moved.frames).at(-1) === total);
      moved.close();

      const history = (await (
        await stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/${body.id}/events?limit=500`)
      ).json()) as { items: BrokerEvent[]; dropped: number };
      const allSeqs = history.items.map((e) => e.seq).reverse();
      expect(stack.eventIds(moved.frames)).toEqual(allSeqs.filter((s) => s > lastSeen));
      expect(history.dropped).toBe(0);
    });

    it('says how many events a reconnecting client will not get when its gap is larger than the replay cap', async () => {
      const { body } = await stack.register();
      const cap = 'artemis-studio.stream.replay-cap';
      await stack.api.fetch(`${stack.gateway.url}/api/v1/settings/${cap}`, {
        ...json({ value: 20 }),
        method: 'PUT',
      });
      try {
        const first = await openStream(
          `${stack.gateway.url}/api/v1/stream?clusterId=${body.id}&topics=events`,
          stack.api.headers,
        );
        await new Promise((r) => setTimeout(r, 300));
        await stack.publishEvents(body.id, 5);
        await waitFor('5 events', () => stack.eventIds(first.frames).length === 5);
        first.close();
        const lastSeen = stack.eventIds(first.frames).at(-1)!;
        await stack.publishEvents(body.id, 50);
        const history = async () =>
          (
            (await (
              await stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/${body.id}/events?limit=100`)
            ).json()) as {
              items: BrokerEvent[];
            }
          ).items;
        await waitFor('55 events stored', async () => (await history()).length === 55);

        const back = await openStream(
          `${stack.gateway.url}/api/v1/stream?clusterId=${body.id}&topics=events`,
          {
            ...stack.api.headers,
            'Last-Event-ID': String(lastSeen),
          },
        );
        await waitFor('the replay', () => stack.eventIds(back.frames).length === 20);
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
        expect(stack.eventIds(back.frames)).toEqual(newest20);
      } finally {
        await stack.api.fetch(`${stack.gateway.url}/api/v1/settings/${cap}`, {
          ...json({ value: 500 }),
          method: 'PUT',
        });
      }
    });

    it('ends the streams of a removed cluster on every replica with a cluster-removed frame', async () => {
      const { body } = await stack.register();
      const streams = await Promise.all(
        [stack.gateway, second].map((g) =>
          openStream(`${g.url}/api/v1/stream?clusterId=${body.id}&topics=queues`, stack.api.headers),
        ),
      );
      await new Promise((r) => setTimeout(r, 300));
      expect(
        (await stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/${body.id}`, { method: 'DELETE' }))
          .status,
      ).toBe(204);
      for (const stream of streams) {
        await waitFor('the stream to end', () => stream.ended(), { timeoutMs: 5000 });
        expect(stream.frames.map((f) => f.event)).toEqual(['cluster-removed']);
        expect(JSON.parse(stream.frames[0].data)).toMatchObject({ clusterId: body.id });
      }
    });

    it('cuts off a client that stopped reading without slowing a fast client', async () => {
      const { body } = await stack.register();
      const fast = await openStream(
        `${stack.gateway.url}/api/v1/stream?clusterId=${body.id}&topics=queues`,
        stack.api.headers,
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
        stack.api.headers.Cookie!,
      ]);
      await new Promise((r) => setTimeout(r, 500));

      const metric = async (name: string) =>
        Number(
          (await (await stack.api.fetch(`${stack.gateway.url}/metrics`)).text()).match(
            new RegExp(`${name}\\{[^}]*\\} (\\d+)`),
          )?.[1] ?? 0,
        );
      const slowBefore = await metric('studio_gateway_stream_slow_disconnects_total');
      const framesBefore = await metric('studio_gateway_stream_frames_total');
      const signal = { topic: 'queues' as const, clusterId: body.id, ts: new Date().toISOString() };
      // Paced, so the gateway's own NATS subscription keeps up (core NATS drops for slow subscribers).
      // More than loopback's socket buffers absorb (several MB), so the stalled client builds a backlog.
      for (let i = 0; i < 150_000; i++) {
        stack.bus.publish(channels.signal, subjects.signal(body.id, 'queues'), signal);
        if (i % 1000 === 999) {
          await stack.bus.flush();
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
      stack.processes.push(notifier);
      const { body } = await stack.register(stack.gateway.url, undefined, {
        username: stack.broker.user,
        password: stack.broker.password,
      });
      // The scraper's part, said directly: the broker is live.
      await declareLive(stack.bus, body.id, stack.broker);
      const status = async () =>
        (
          (await (await stack.api.fetch(`${stack.gateway.url}/api/v1/clusters/${body.id}`)).json()) as {
            capabilities: { notifications: { status: string } };
          }
        ).capabilities.notifications.status;
      await waitFor('the notifier subscribed', async () => (await status()) === 'AVAILABLE', {
        timeoutMs: 30_000,
      });
      const stream = await openStream(
        `${stack.gateway.url}/api/v1/stream?clusterId=${body.id}&topics=events,consumers`,
        stack.api.headers,
      );
      await new Promise((r) => setTimeout(r, 300));

      const queue = `e2e.${randomUUID()}`;
      const client = await openAmqpClient(
        stack.broker.nodes[0].amqpUrl,
        stack.broker.user,
        stack.broker.password,
      );
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
