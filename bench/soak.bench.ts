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
 * $SOAK_DIR/samples.csv, the services' output to $SOAK_DIR/logs. A report, not a timed test: the
 * figures go to docs/benchmarks.md.
 */
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { killOnExit } from '@artemis-studio/testing';
import { serviceEnvOverrides } from './support/fault-rig';
import { startLoadedRig } from './support/loaded-rig';
import { once } from './support/sse-load-process';
import { runBench } from './support/run-bench';

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
  /**
   * Anonymous resident memory (/proc/<pid>/smaps) in glibc's malloc arenas: the brk heap (main
   * arena) and the 64 MiB-aligned mappings of the threads' arenas. Native allocation lives here.
   */
  mallocMb: number;
  /** V8's regular heap pages (256 KiB mappings): how much of them is resident, of how much mapped. */
  v8PagesMb: number;
  v8PagesMappedMb: number;
}

/** glibc maps each thread arena at a multiple of HEAP_MAX_SIZE (64 MiB on 64-bit). */
const ARENA_ALIGNMENT = 64n * 2n ** 20n;
/** V8's regular page (kRegularPageSize on x64); a large object has a mapping of its own size. */
const V8_PAGE_KB = 256;

/**
 * Splits a process's anonymous memory by who mapped it. V8 maps its heap in 256 KiB pages, and
 * the kernel makes a part of a page resident only once it is written: with the pages (and "heap
 * committed") unchanged, RSS can creep up as V8 writes to parts of them it had not used yet, at
 * most to what is mapped. That is growth with a ceiling; growth in the malloc arenas, or in the
 * number of pages, would be a leak.
 */
function anonymousMemory(pid: number): Pick<Sample, 'mallocMb' | 'v8PagesMb' | 'v8PagesMappedMb'> {
  const kb = { malloc: 0, v8: 0, v8Mapped: 0 };
  let kind: 'malloc' | 'v8' | 'other' = 'other';
  try {
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const mapping = /^([0-9a-f]+)-([0-9a-f]+) (\S+) /.exec(line);
      if (mapping) {
        const [start, end] = [BigInt(`0x${mapping[1]}`), BigInt(`0x${mapping[2]}`)];
        const sizeKb = Number((end - start) / 1024n);
        kind =
          line.endsWith('[heap]') || start % ARENA_ALIGNMENT === 0n
            ? 'malloc'
            : sizeKb === V8_PAGE_KB && mapping[3] === 'rw-p'
              ? 'v8'
              : 'other';
        if (kind === 'v8') kb.v8Mapped += sizeKb;
      } else if (line.startsWith('Anonymous:') && kind !== 'other') kb[kind] += Number(line.split(/\s+/)[1]);
    }
  } catch {
    return { mallocMb: NaN, v8PagesMb: NaN, v8PagesMappedMb: NaN };
  }
  return { mallocMb: kb.malloc / 1024, v8PagesMb: kb.v8 / 1024, v8PagesMappedMb: kb.v8Mapped / 1024 };
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
  const { rig, churn, watcher, perCycle } = await startLoadedRig(progress, join(DIR, 'logs'));
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
        ...anonymousMemory(service.process!.pid),
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
    'minute,service,rss_mb,heap_used_mb,external_mb,heap_committed_mb,new_space_mb,loop_p99_ms,loop_max_ms,malloc_mb,v8_pages_mb,v8_pages_mapped_mb\n' +
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
            s.mallocMb.toFixed(1),
            s.v8PagesMb.toFixed(1),
            s.v8PagesMappedMb.toFixed(1),
          ].join(','),
        )
        .join('\n') +
      '\n',
  );

  console.log(
    `\nSoak, ${MINUTES} min, ${RATE} notifications/s, ${CLIENTS} streams (${EVENT_FOLLOWERS} on every event), warm-up ${WARMUP_MINUTES} min, ${new Date().toISOString()}\n`,
  );
  console.log(
    '| service | RSS MB after warm-up | RSS MB at the end | RSS slope MB/h | noise (sd) MB | slope x run / noise | RSS slope MB/h, last half | heap used MB (warm-up, end) | external MB (warm-up, end) | heap committed MB (warm-up, end) | new space MB (warm-up, end) | loop delay p99 ms, median (max) | loop delay max ms, max | malloc arenas MB (warm-up, end) | malloc slope MB/h | V8 pages resident of mapped MB (warm-up, end) | resident slope MB/h | settings |',
  );
  console.log(`|${' --- |'.repeat(18)}`);
  const overrides = serviceEnvOverrides();
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
    const slopeOf = (y: (s: Sample) => number) => fit(warm.map((s) => ({ x: s.minute / 60, y: y(s) }))).slope;
    const settings = Object.entries(overrides[service.key] ?? {}).map(([k, v]) => `${k}=${v}`);
    console.log(
      `| ${service.key} | ${warm[0].rssMb.toFixed(0)} | ${warm.at(-1)!.rssMb.toFixed(0)} | ${slope.toFixed(1)} | ${noise.toFixed(1)} | ` +
        `${noise === 0 ? '-' : ((slope * span) / noise).toFixed(1)} | ${lateSlope.toFixed(1)} | ` +
        `${warm[0].heapUsedMb.toFixed(0)}, ${warm.at(-1)!.heapUsedMb.toFixed(0)} | ` +
        `${warm[0].externalMb.toFixed(0)}, ${warm.at(-1)!.externalMb.toFixed(0)} | ` +
        `${warm[0].heapCommittedMb.toFixed(0)}, ${warm.at(-1)!.heapCommittedMb.toFixed(0)} | ` +
        `${warm[0].newSpaceMb.toFixed(0)}, ${warm.at(-1)!.newSpaceMb.toFixed(0)} | ` +
        `${median(mine.map((s) => s.loopP99Ms)).toFixed(0)} (${Math.max(...mine.map((s) => s.loopP99Ms)).toFixed(0)}) | ` +
        `${Math.max(...mine.map((s) => s.loopMaxMs)).toFixed(0)} | ` +
        `${warm[0].mallocMb.toFixed(0)}, ${warm.at(-1)!.mallocMb.toFixed(0)} | ${slopeOf((s) => s.mallocMb).toFixed(1)} | ` +
        `${warm[0].v8PagesMb.toFixed(0)} of ${warm[0].v8PagesMappedMb.toFixed(0)}, ${warm.at(-1)!.v8PagesMb.toFixed(0)} of ${warm.at(-1)!.v8PagesMappedMb.toFixed(0)} | ${slopeOf((s) => s.v8PagesMb).toFixed(1)} | ` +
        `${settings.join(' ') || 'as built'} |`,
    );
  }
  console.log(
    `\nstreams: ${status.open} of ${CLIENTS} open at the end, ${status.refusals} stream requests refused; samples in ${DIR}/samples.csv`,
  );
  await rig.stop();
}

runBench(__filename, main);
