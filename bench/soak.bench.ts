/**
 * The soak (issue 17): npm run bench -- soak
 *   SOAK_MINUTES=60  SOAK_CLIENTS=1000  SOAK_EVENT_FOLLOWERS=200  SOAK_RATE=500 (notifications/s)
 *   SOAK_WARMUP_MINUTES=10
 *
 * The fault suite's stack (bench/support/fault-rig.ts: a broker pair, every service, two gateway
 * replicas behind a balancer) with no fault: receivers churn on the broker at SOAK_RATE
 * notifications/s and SOAK_CLIENTS streams are open through the balancer, SOAK_EVENT_FOLLOWERS of
 * them following every broker event and the rest the console's default topics (topology, health,
 * queues). All 1,000 on every event is 500,000 frames/s, which this 2-core machine cannot send
 * (tried: loop delays of 20 s, a third of the streams cut off): that run measures overload, not
 * leaks.
 * Every 30 s each service's /metrics gives its resident memory and event-loop delay (prom-client's
 * default metrics), and what of the memory V8 accounts for: heap used, heap committed, new space
 * committed, external. RSS that moves with the committed new space is V8 growing its young
 * generation under a high allocation rate, bounded by its semi-space limit, not a leak. After the warm-up, the RSS slope (least squares, MB per hour) is set beside
 * the noise around it: a leak is a slope the noise does not explain. Samples go to
 * $SOAK_DIR/samples.csv. A report, not a timed test: the figures go to docs/benchmarks.md.
 */
import { fork } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killOnExit } from '@artemis-studio/testing';
import { startLoadedRig } from './support/loaded-rig';
import { once } from './support/sse-load-process';

const MINUTES = Number(process.env.SOAK_MINUTES ?? 60);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? Math.min(10, MINUTES / 3));
const CLIENTS = Number(process.env.SOAK_CLIENTS ?? 1000);
const EVENT_FOLLOWERS = Math.min(CLIENTS, Number(process.env.SOAK_EVENT_FOLLOWERS ?? 200));
const RATE = Number(process.env.SOAK_RATE ?? 500);
const SAMPLE_MS = 30_000;
const DIR = process.env.SOAK_DIR ?? '/tmp/studio-soak';

const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  minute: number;
  service: string;
  rssMb: number;
  heapUsedMb: number;
  /** Memory V8 accounts for outside its heap: Buffers, socket write queues. */
  externalMb: number;
  /** What V8 has committed for its heap, and of that its new space (grown on demand). */
  heapCommittedMb: number;
  newSpaceMb: number;
  loopP99Ms: number;
  loopMaxMs: number;
}

/**
 * One value of a Prometheus text exposition, by metric name (the service's default labels and
 * all), or by a name with its first label (`name{space="new"`).
 */
function metric(text: string, name: string): number {
  const line = text
    .split('\n')
    .find((l) =>
      name.includes('{') ? l.startsWith(name) : l.startsWith(`${name} `) || l.startsWith(`${name}{`),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : NaN;
}

/** Least-squares slope and the standard deviation of the residuals around the line. */
function fit(points: { x: number; y: number }[]): { slope: number; noise: number } {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  const slope = sxx === 0 ? 0 : points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
  const residuals = points.map((p) => p.y - (my + slope * (p.x - mx)));
  const noise = Math.sqrt(residuals.reduce((s, r) => s + r * r, 0) / Math.max(1, n - 2));
  return { slope, noise };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const { rig, churn, watcher, perCycle } = await startLoadedRig(progress);
  await watcher.stop();

  progress(`opening ${CLIENTS} streams through the balancer, ${EVENT_FOLLOWERS} of them on every event`);
  const follow = async (url: string, count: number) => {
    const child = killOnExit(
      fork(
        join(__dirname, 'support', 'stream-followers.mjs'),
        [url, String(count), JSON.stringify(rig.streamHeaders)],
        { stdio: 'inherit' },
      ),
    );
    await once(child, 'ready');
    return child;
  };
  const followers = await follow(rig.streamUrl, EVENT_FOLLOWERS);
  const watchers = await follow(rig.signalStreamUrl, CLIENTS - EVENT_FOLLOWERS);
  churn.setPhase('soak');
  churn.start(RATE / perCycle);
  progress(`${MINUTES} min at ${RATE} notifications/s (${perCycle} per cycle)`);

  const samples: Sample[] = [];
  const started = Date.now();
  while (Date.now() - started < MINUTES * 60_000) {
    await sleep(SAMPLE_MS);
    const minute = (Date.now() - started) / 60_000;
    for (const service of rig.services) {
      const text = await fetch(`${service.process!.url}/metrics`)
        .then((r) => r.text())
        .catch(() => '');
      samples.push({
        minute,
        service: service.key,
        rssMb: metric(text, 'process_resident_memory_bytes') / 2 ** 20,
        heapUsedMb: metric(text, 'nodejs_heap_size_used_bytes') / 2 ** 20,
        externalMb: metric(text, 'nodejs_external_memory_bytes') / 2 ** 20,
        heapCommittedMb: metric(text, 'nodejs_heap_size_total_bytes') / 2 ** 20,
        newSpaceMb: metric(text, 'nodejs_heap_space_size_total_bytes{space="new"') / 2 ** 20,
        loopP99Ms: metric(text, 'nodejs_eventloop_lag_p99_seconds') * 1000,
        loopMaxMs: metric(text, 'nodejs_eventloop_lag_max_seconds') * 1000,
      });
    }
    const last = samples.slice(-rig.services.length);
    progress(
      `${minute.toFixed(1)} min: ` +
        last
          .map(
            (s) =>
              `${s.service} ${s.rssMb.toFixed(0)} MB (external ${s.externalMb.toFixed(0)}), loop p99 ${s.loopP99Ms.toFixed(0)} ms`,
          )
          .join('; '),
    );
  }

  await churn.stop();
  const statusOf = async (child: typeof followers) => {
    child.send({ type: 'status' });
    return once<{ open: number; refusals: number }>(child, 'status');
  };
  const [events, signals] = [await statusOf(followers), await statusOf(watchers)];
  const status = { open: events.open + signals.open, refusals: events.refusals + signals.refusals };
  followers.kill();
  watchers.kill();

  mkdirSync(DIR, { recursive: true });
  writeFileSync(
    join(DIR, 'samples.csv'),
    'minute,service,rss_mb,heap_used_mb,external_mb,heap_committed_mb,new_space_mb,loop_p99_ms,loop_max_ms\n' +
      samples
        .map((s) =>
          [
            s.minute.toFixed(2),
            s.service,
            s.rssMb.toFixed(1),
            s.heapUsedMb.toFixed(1),
            s.externalMb.toFixed(1),
            s.heapCommittedMb.toFixed(1),
            s.newSpaceMb.toFixed(1),
            s.loopP99Ms.toFixed(1),
            s.loopMaxMs.toFixed(1),
          ].join(','),
        )
        .join('\n') +
      '\n',
  );

  console.log(
    `\nSoak, ${MINUTES} min, ${RATE} notifications/s, ${CLIENTS} streams (${EVENT_FOLLOWERS} on every event), warm-up ${WARMUP_MINUTES} min, ${new Date().toISOString()}\n`,
  );
  console.log(
    '| service | RSS MB after warm-up | RSS MB at the end | RSS slope MB/h | noise (sd) MB | slope x run / noise | RSS slope MB/h, last half | heap used MB (warm-up, end) | external MB (warm-up, end) | heap committed MB (warm-up, end) | new space MB (warm-up, end) | loop delay p99 ms, median (max) | loop delay max ms, max |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const service of rig.services) {
    const mine = samples.filter((s) => s.service === service.key && Number.isFinite(s.rssMb));
    const warm = mine.filter((s) => s.minute >= WARMUP_MINUTES);
    if (warm.length < 3) continue;
    const { slope, noise } = fit(warm.map((s) => ({ x: s.minute / 60, y: s.rssMb })));
    const span = (warm.at(-1)!.minute - warm[0].minute) / 60;
    // A one-off step (the allocator taking more pages once) inflates the whole fit; the last
    // half alone tells a plateau after it from a slope that goes on.
    const lastHalf = warm.slice(Math.floor(warm.length / 2));
    const { slope: lateSlope } = fit(lastHalf.map((s) => ({ x: s.minute / 60, y: s.rssMb })));
    console.log(
      `| ${service.key} | ${warm[0].rssMb.toFixed(0)} | ${warm.at(-1)!.rssMb.toFixed(0)} | ${slope.toFixed(1)} | ${noise.toFixed(1)} | ` +
        `${noise === 0 ? '-' : ((slope * span) / noise).toFixed(1)} | ${lateSlope.toFixed(1)} | ` +
        `${warm[0].heapUsedMb.toFixed(0)}, ${warm.at(-1)!.heapUsedMb.toFixed(0)} | ` +
        `${warm[0].externalMb.toFixed(0)}, ${warm.at(-1)!.externalMb.toFixed(0)} | ` +
        `${warm[0].heapCommittedMb.toFixed(0)}, ${warm.at(-1)!.heapCommittedMb.toFixed(0)} | ` +
        `${warm[0].newSpaceMb.toFixed(0)}, ${warm.at(-1)!.newSpaceMb.toFixed(0)} | ` +
        `${median(mine.map((s) => s.loopP99Ms)).toFixed(0)} (${Math.max(...mine.map((s) => s.loopP99Ms)).toFixed(0)}) | ` +
        `${Math.max(...mine.map((s) => s.loopMaxMs)).toFixed(0)} |`,
    );
  }
  console.log(
    `\nstreams: ${status.open} of ${CLIENTS} open at the end, ${status.refusals} stream requests refused; samples in ${DIR}/samples.csv`,
  );
  await rig.stop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
