/**
 * One gateway, many SSE clients (issue 6):   npm run bench -- gateway-sse     (BENCH_CLIENTS=10000)
 * A separate load process holds the streams; signals are published on NATS and timed from
 * publish to receipt on every client. In the same run, a bare Node HTTP server writing the same
 * frame to the same number of sockets is the limit. Gateway peak memory is its VmHWM.
 */
import { NatsBus } from '@artemis-studio/bus';
import { channels, subjects } from '@artemis-studio/contracts';
import {
  createTestDatabase,
  killOnExit,
  signIn,
  spawnService,
  startPrivateNats,
} from '@artemis-studio/testing';
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { peakMemoryMb } from './support/process-stats';
import { once, startSseLoad, type SseLoadReport } from './support/sse-load-process';
import { runBench } from './support/run-bench';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 10_000);
const SIGNALS = 20;
const GAP_MS = 500;

async function measure(
  url: string,
  send: (i: number) => void,
  headers: Record<string, string> = {},
): Promise<SseLoadReport & { seconds: number }> {
  const load = await startSseLoad(url, CLIENTS, 'topology', headers);
  if (load.ready.errors) console.log(`${load.ready.errors} clients could not connect to ${url}`);
  await new Promise((r) => setTimeout(r, 1000));
  const started = performance.now();
  for (let i = 0; i < SIGNALS; i++) {
    send(i);
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  await new Promise((r) => setTimeout(r, 2000));
  const seconds = (performance.now() - started) / 1000;
  const report = await load.report();
  load.stop();
  return { ...report, seconds };
}

async function main(): Promise<void> {
  const nats = await startPrivateNats();
  const database = await createTestDatabase({ migrated: true });
  process.env.STUDIO_TEST_DATABASE_URL = database.url;
  // Every client comes from this machine's one address: the per-address stream limit is lifted.
  const gateway = await spawnService('gateway', 18590, {
    NATS_URL: nats.url,
    SSE_MAX_STREAMS_PER_ADDRESS: String(CLIENTS),
  });
  const bus = new NatsBus({ servers: nats.url, name: 'sse-bench', log: { warn() {}, error() {} } });
  const admin = await signIn(gateway.url);
  const response = await admin.fetch(`${gateway.url}/api/v1/clusters`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'bench',
      nodes: [{ name: 'a', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
    }),
  });
  const clusterId = ((await response.json()) as { id: string }).id;

  const viaGateway = await measure(
    `${gateway.url}/api/v1/stream?clusterId=${clusterId}&topics=topology`,
    () =>
      bus.publish(channels.signal, subjects.signal(clusterId, 'topology'), {
        topic: 'topology',
        clusterId,
        ts: new Date().toISOString(),
      }),
    admin.headers,
  );
  const gatewayPeakMb = peakMemoryMb(gateway.pid);

  const bare = killOnExit(fork(join(__dirname, 'support', 'bare-sse-server.mjs'), [], { stdio: 'inherit' }));
  const { port } = await once<{ port: number }>(bare, 'listening');
  const viaBare = await measure(`http://127.0.0.1:${port}/`, () =>
    bare.send({ type: 'broadcast', clusterId }),
  );
  const barePeakMb = peakMemoryMb(bare.pid!);
  bare.kill();

  const expected = CLIENTS * SIGNALS;
  const row = (path: string, r: SseLoadReport & { seconds: number }, peak: number) => ({
    path,
    clients: CLIENTS,
    'frames received': `${r.frames} / ${expected}`,
    'frames/s': (r.frames / r.seconds).toFixed(0),
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'max ms': r.max,
    'peak RSS MB': peak.toFixed(0),
    'closed early': r.closed,
  });
  console.log(
    `\nSSE fan-out: ${CLIENTS} clients, ${SIGNALS} signals ${GAP_MS} ms apart, ${new Date().toISOString()}\n`,
  );
  console.table([
    row('gateway (NATS signal to SSE frame)', viaGateway, gatewayPeakMb),
    row('bare Node HTTP server (limit)', viaBare, barePeakMb),
  ]);
  console.log(
    'frames/s is delivered frames over the whole measured window (the publish rate bounds it); p99 is per frame.',
  );

  await gateway.stop();
  await bus.close();
  await database.drop();
  await nats.stop();
}

runBench(__filename, main);
