import { rpcs } from '@artemis-studio/contracts';
import {
  TcpProxy,
  spawnService,
  testDatabaseUrl,
  waitFor,
  type ServiceProcess,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { EventStoreStack } from './event-store-stack.fixture';

describe('event stores as separate processes against real PostgreSQL and NATS', () => {
  const stack = new EventStoreStack();

  beforeAll(async () => {
    await stack.start();
  });
  afterAll(() => stack.stop());
  const processes: ServiceProcess[] = [];
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((p) => p.stop()));
  });

  it('loses and duplicates nothing when killed with SIGKILL mid-stream', async () => {
    const clusterId = randomUUID();
    processes.push(await spawnService('event-store', 18383));
    const publishing = stack.publish(clusterId, 10_000, { inFlight: 250, perSecond: 4000 });
    await waitFor('the first events written', async () => (await stack.countOf(clusterId)) > 1000, {
      timeoutMs: 30_000,
    });
    await processes.pop()!.kill();
    const atKill = await stack.countOf(clusterId);
    const events = await publishing;
    processes.push(await spawnService('event-store', 18383));
    await waitFor('all 10,000 written', async () => (await stack.countOf(clusterId)) === 10_000, {
      timeoutMs: 60_000,
    });
    expect(atKill).toBeLessThan(10_000);
    const rows = await stack.stored(clusterId);
    expect(new Set(rows.map((r) => r.eventId))).toEqual(new Set(events.map((e) => e.eventId)));
  }, 120_000);

  it('hands a backlog over on a graceful stop without holding any of it for the acknowledgement window', async () => {
    const clusterId = randomUUID();
    const events = await stack.publish(clusterId, 30_000);
    const first = await spawnService('event-store', 18387);
    processes.push(first);
    await waitFor('the first of the backlog written', async () => (await stack.countOf(clusterId)) > 2000, {
      timeoutMs: 30_000,
    });
    await first.stop();
    const atStop = await stack.countOf(clusterId);
    processes.push(await spawnService('event-store', 18388));
    // The consumer's window is 60 s. Before, a stop mid-drain left the up to 1,000 events its
    // open pull had been sent unacknowledged until then.
    await waitFor(
      'the rest written by the next writer',
      async () => (await stack.countOf(clusterId)) === 30_000,
      {
        timeoutMs: 20_000,
      },
    );
    expect(atStop).toBeLessThan(30_000);
    const rows = await stack.stored(clusterId);
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
      await stack.publish(clusterId, 500);
      await waitFor('the first 500 written', async () => (await stack.countOf(clusterId)) === 500);

      proxy.block();
      const outage = Date.now();
      await stack.publish(clusterId, 1500, { inFlight: 100, perSecond: 150 });
      while (Date.now() - outage < 20_000) await new Promise((r) => setTimeout(r, 500));
      expect(await stack.countOf(clusterId)).toBe(500);

      proxy.unblock();
      await waitFor(
        'all 2,000 written after the outage',
        async () => (await stack.countOf(clusterId)) === 2000,
        {
          timeoutMs: 60_000,
        },
      );
      const rows = await stack.stored(clusterId);
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
          const { events } = await stack.bus.request(rpcs.eventsSince, {
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

    const publishing = stack.publish(clusterId, 6000, { inFlight: 100, perSecond: 1500 });
    await waitFor('a third written', async () => (await stack.countOf(clusterId)) > 2000, {
      timeoutMs: 30_000,
    });
    const writer = (await Promise.all(replicas.map(isWriter))).indexOf(true);
    expect(writer).toBeGreaterThanOrEqual(0);
    await replicas[writer].kill();
    await publishing;
    await waitFor(
      'all 6,000 written by the other replica',
      async () => (await stack.countOf(clusterId)) === 6000,
      { timeoutMs: 60_000 },
    );
    await waitFor('the client to catch up', () => seen.length >= 6000, { timeoutMs: 30_000 });
    following = false;
    await follow;

    const rows = await stack.stored(clusterId);
    expect(seen).toEqual(rows.map((r) => r.seq));
  }, 150_000);
});
