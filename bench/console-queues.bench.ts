/**
 * The queues screen at 10,000 queues, in headless Chromium (issue 14):
 *   npm run bench -- console-queues          (BENCH_QUEUES=10000; BENCH_KEEP_BROKER=1 leaves it up)
 * A real broker (the `bench` profile) holding 10,000 queues, polled by the scraper; the gateway
 * serving the built console, both as their own processes; a `queues` signal published every
 * second while measuring (besides the scraper's own, which come only when a figure moves). Measured for
 * the console's virtualised table and, in the same run, for a plain table of every row (the
 * baseline): navigation to the first rows, scroll frame time p95 (frame rate unlimited, so a
 * frame's interval is its cost) in a fast fling and at a brisk wheel's pace, and main-thread time
 * per second while the signals arrive.
 */
import { NatsBus } from '@artemis-studio/bus';
import { channels, subjects } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  artemis,
  brokerCluster,
  createTestDatabase,
  insertCluster,
  signIn,
  spawnService,
  startBroker,
  startPrivateNats,
  waitFor,
} from '@artemis-studio/testing';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium, signedInPage } from '../web/e2e/browser';
import { benchQueueName, fillBenchQueues } from './support/bench-queues';
import { PLAIN_QUEUES_PAGE, SCROLL_FRAMES as SCROLL_FRAMES_IN_PAGE } from './support/in-page';
import { runBench } from './support/run-bench';

/** Runs one of ./support/in-page's functions in the page, called with `arg`. */
function runInPage<T>(page: Page, source: string, arg: unknown): Promise<T> {
  return page.evaluate(`(${source})(${JSON.stringify(arg)})`) as Promise<T>;
}

const QUEUES = Number(process.env.BENCH_QUEUES ?? 10_000);
const SIGNAL_SECONDS = 10;
/** How long the stored queues must stay as many before the table is measured. */
const SETTLED_MS = 20_000;
const SCROLL_FRAMES = 240;
/** Pixels a frame: a fast fling (17 rows a frame), and a brisk mouse wheel (about 7,000 px/s at 60 Hz). */
const FLING = 600;
const WHEEL = 120;

interface Figures {
  path: string;
  firstRowsMs: number;
  frameP50Ms: number;
  frameP95Ms: number;
  wheelFrameP95Ms: number;
  mainThreadMsPerSecond: number;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

/** Scrolls the element down `pixels` at every frame and times the frames. */
const scrollFrames = (page: Page, selector: string, pixels: number) =>
  runInPage<number[]>(page, SCROLL_FRAMES_IN_PAGE, { selector, frames: SCROLL_FRAMES, pixels });

/** Main-thread task time over the window, from Chromium's own metrics. */
async function mainThreadMsPerSecond(page: Page, during: () => Promise<void>): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskSeconds = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')!.value;
  const before = await taskSeconds();
  const started = performance.now();
  await during();
  const after = await taskSeconds();
  return ((after - before) * 1000) / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const root = join(__dirname, '..');
  if (!existsSync(join(root, 'web', 'dist', 'index.html')))
    execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  // 10,000 queues need more heap than the profile's default 512 MB (applies when it is created).
  process.env.ARTEMIS_JAVA_MEMORY ??= '1G';
  const broker = await startBroker('bench');
  await fillBenchQueues(broker, QUEUES);
  const nats = await startPrivateNats();
  const database = await createTestDatabase({ migrated: true });
  process.env.STUDIO_TEST_DATABASE_URL = database.url;
  const db = await createDataSource({ url: database.url, poolSize: 2 }).initialize();
  const cluster = await insertCluster(db, brokerCluster(broker, 'bench'));
  const scraper = await spawnService('scraper', 18691, { NATS_URL: nats.url });
  const gateway = await spawnService('gateway', 18690, { NATS_URL: nats.url });
  const stored = async () => Number((await db.query(`SELECT count(*) FROM queue_snapshot`))[0].count);
  // The set measured must have stopped changing: after the bench queues, the scraper stores Studio's
  // own notification ring, made for the cluster after its first ticks (a count taken at 10,000 was
  // one short of what the table then rendered). Settled is the same count for longer than a tier-B
  // interval (15 s).
  let last = { count: -1, since: Date.now() };
  const total = await waitFor(
    'the scraper to store every queue, and no more',
    async () => {
      const count = await stored();
      if (count !== last.count) last = { count, since: Date.now() };
      return count >= QUEUES && Date.now() - last.since >= SETTLED_MS ? count : undefined;
    },
    { timeoutMs: 240_000, intervalMs: 1000 },
  );
  await db.destroy();
  const firstQueue = benchQueueName(0);
  const bus = new NatsBus({ servers: nats.url, name: 'console-bench', log: { warn() {}, error() {} } });
  await bus.ready();
  const signal = () =>
    bus.publish(channels.signal, subjects.signal(cluster.id, 'queues'), {
      topic: 'queues',
      clusterId: cluster.id,
      ts: new Date().toISOString(),
    });
  if (process.env.BENCH_SERVE_ONLY) {
    // For a profile by hand: the same data and gateway, left running until interrupted.
    console.log(
      `serving ${gateway.url}/clusters/${cluster.id}/queues until interrupted, a queues signal a second`,
    );
    setInterval(signal, 1000);
    await new Promise(() => undefined);
  }
  const withSignals = async () => {
    for (let s = 0; s < SIGNAL_SECONDS; s++) {
      signal();
      await new Promise((r) => setTimeout(r, 1000));
    }
  };

  // Frames as fast as the main thread makes them: a frame's interval is then its cost.
  const browser = await launchChromium(['--disable-frame-rate-limit', '--disable-gpu-vsync']);
  const results: Figures[] = [];
  try {
    // The console: warm the browser's cache of the app once, then measure a fresh navigation.
    const session = await signIn(gateway.url);
    const page = await signedInPage(browser, gateway.url, session);
    await page.goto(`${gateway.url}/clusters/${cluster.id}/queues`);
    await page.getByRole('link', { name: firstQueue }).waitFor({ timeout: 30_000 });
    const started = performance.now();
    await page.goto(`${gateway.url}/clusters/${cluster.id}/queues`);
    await page.getByRole('link', { name: firstQueue }).waitFor({ timeout: 30_000 });
    const firstRowsMs = performance.now() - started;
    await page.waitForTimeout(1000);
    const frames = await scrollFrames(page, '[role="table"][aria-label="Queues"]', FLING);
    const wheelFrames = await scrollFrames(page, '[role="table"][aria-label="Queues"]', WHEEL);
    const perSecond = await mainThreadMsPerSecond(page, withSignals);
    results.push({
      path: 'console: virtualised, pages in view only',
      firstRowsMs,
      frameP50Ms: percentile(frames, 50),
      frameP95Ms: percentile(frames, 95),
      wheelFrameP95Ms: percentile(wheelFrames, 95),
      mainThreadMsPerSecond: perSecond,
    });
    await page.close();

    // The baseline: every row in one plain table, all of it again at every signal.
    const plain = await signedInPage(browser, gateway.url, session);
    await plain.goto(`${gateway.url}/healthz`);
    const plainStarted = performance.now();
    const rendered = await runInPage<number>(plain, PLAIN_QUEUES_PAGE, { clusterId: cluster.id, total });
    const plainFirstRowsMs = performance.now() - plainStarted;
    if (rendered !== total) throw new Error(`the plain table rendered ${rendered} rows, not ${total}`);
    const plainFrames = await scrollFrames(plain, '#scroller', FLING);
    const plainWheelFrames = await scrollFrames(plain, '#scroller', WHEEL);
    const plainPerSecond = await mainThreadMsPerSecond(plain, withSignals);
    results.push({
      path: 'plain table of every row (baseline)',
      firstRowsMs: plainFirstRowsMs,
      frameP50Ms: percentile(plainFrames, 50),
      frameP95Ms: percentile(plainFrames, 95),
      wheelFrameP95Ms: percentile(plainWheelFrames, 95),
      mainThreadMsPerSecond: plainPerSecond,
    });
  } finally {
    await browser.close();
    await bus.close();
    await gateway.stop();
    await scraper.stop();
    await nats.stop();
    if (!process.env.BENCH_KEEP_BROKER) await artemis('stop', 'bench');
  }

  console.log(`\nThe queues screen at ${total.toLocaleString()} queues, ${new Date().toISOString()}\n`);
  console.table(
    results.map((r) => ({
      path: r.path,
      'first rows ms': Math.round(r.firstRowsMs),
      'scroll frame p50 ms': r.frameP50Ms.toFixed(1),
      'scroll frame p95 ms': r.frameP95Ms.toFixed(1),
      'wheel frame p95 ms': r.wheelFrameP95Ms.toFixed(1),
      'main thread ms/s, a signal a second': Math.round(r.mainThreadMsPerSecond),
    })),
  );
  const [ours, base] = results;
  console.log(
    `console / plain: first rows ${(ours.firstRowsMs / base.firstRowsMs).toFixed(2)}, ` +
      `frame p95 ${(ours.frameP95Ms / base.frameP95Ms).toFixed(2)}, ` +
      `wheel frame p95 ${(ours.wheelFrameP95Ms / base.wheelFrameP95Ms).toFixed(2)}, ` +
      `main thread ${(ours.mainThreadMsPerSecond / base.mainThreadMsPerSecond).toFixed(2)}`,
  );
  console.log('goals: first rows < 1000 ms, frame p95 < 16 ms (fling and wheel), main thread < 100 ms/s');
  process.exit(0);
}

runBench(__filename, main);
