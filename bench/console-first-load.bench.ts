/**
 * The console's first load on a slow network, cold cache (issue 31):
 *   npm run bench -- console-first-load        (BENCH_RUNS=5)
 * The console is built twice in the same run: as it ships (split by route and heavy widget, served
 * gzipped) and as one bundle served as is (the baseline: how it shipped before), each by its own
 * gateway. In headless
 * Chromium throttled to DevTools' "Fast 3G" profile (562.5 ms round trip, 1.44 Mbit/s down,
 * 675 kbit/s up), every run in a fresh context: the time to the sign-in form, and, signed in, to
 * the first cluster's overview. Goal: the sign-in form in under half the baseline's time.
 */
import {
  createTestDatabase,
  signIn,
  spawnService,
  startPrivateNats,
  type ServiceProcess,
} from '@artemis-studio/testing';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from '../web/e2e/browser';
import { runBench } from './support/run-bench';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Chrome DevTools' "Fast 3G" preset, as its network conditions. */
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: (1.44 * 1024 * 1024) / 8,
  uploadThroughput: (675 * 1024) / 8,
};

const progress = (step: string) => console.error(`[${new Date().toISOString()}] ${step}`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Builds the console into `outDir`; `oneBundle` builds it as it shipped before the split. */
function build(outDir: string, oneBundle: boolean): void {
  execFileSync('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: join(__dirname, '..', 'web'),
    env: { ...process.env, ...(oneBundle ? { STUDIO_ONE_BUNDLE: '1' } : {}) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** What the page loads before anything else (index.html's scripts and styles), and every script: KB. */
function assetSizes(outDir: string): {
  firstKb: number;
  firstGzKb: number;
  scriptsKb: number;
  scripts: number;
} {
  const assets = join(outDir, 'assets');
  const files = readdirSync(assets).filter((f) => statSync(join(assets, f)).isFile());
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const first = files.filter((f) => html.includes(f));
  const size = (f: string) => readFileSync(join(assets, f)).length / 1024;
  const gz = (f: string) => gzipSync(readFileSync(join(assets, f))).length / 1024;
  const scripts = files.filter((f) => f.endsWith('.js'));
  return {
    firstKb: Math.round(first.reduce((sum, f) => sum + size(f), 0)),
    firstGzKb: Math.round(first.reduce((sum, f) => sum + gz(f), 0)),
    scriptsKb: Math.round(scripts.reduce((sum, f) => sum + size(f), 0)),
    scripts: scripts.length,
  };
}

async function throttled(browser: Browser, cookie?: { name: string; value: string; url: string }) {
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (cookie) await context.addCookies([cookie]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', FAST_3G);
  return { context, page };
}

async function main(): Promise<void> {
  const dirs = {
    split: mkdtempSync(join(tmpdir(), 'studio-split-')),
    one: mkdtempSync(join(tmpdir(), 'studio-one-')),
  };
  progress('building the console twice: split, and as one bundle');
  build(dirs.split, false);
  build(dirs.one, true);

  progress('starting NATS, a database and a gateway for each build');
  const nats = await startPrivateNats();
  const database = await createTestDatabase({ migrated: true });
  process.env.STUDIO_TEST_DATABASE_URL = database.url;
  const gateways: Record<'split' | 'one', ServiceProcess> = {
    split: await spawnService('gateway', 18720, { NATS_URL: nats.url, WEB_DIST: dirs.split }),
    // As it shipped before: one bundle, served uncompressed.
    one: await spawnService('gateway', 18721, {
      NATS_URL: nats.url,
      WEB_DIST: dirs.one,
      CONSOLE_COMPRESSION: 'off',
    }),
  };
  const browser = await launchChromium();
  try {
    const admin = await signIn(gateways.split.url);
    const created = await admin.fetch(`${gateways.split.url}/api/v1/clusters`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'first-load',
        nodes: [{ name: 'a', jolokiaUrl: 'http://127.0.0.1:1/jolokia' }],
      }),
    });
    const clusterId = ((await created.json()) as { id: string }).id;
    const [name, ...value] = (admin.headers.Cookie ?? '').split('=');

    const figures: Record<'split' | 'one', { signIn: number[]; overview: number[] }> = {
      split: { signIn: [], overview: [] },
      one: { signIn: [], overview: [] },
    };
    for (let run = 0; run < RUNS; run++) {
      // Alternating which build goes first, so neither always meets a busier machine.
      for (const build of (run % 2 ? ['one', 'split'] : ['split', 'one']) as ('split' | 'one')[]) {
        const base = gateways[build].url;
        const anonymous = await throttled(browser);
        let started = performance.now();
        await anonymous.page.goto(`${base}/clusters`, { waitUntil: 'commit' });
        await anonymous.page.getByRole('form', { name: 'Sign in' }).waitFor({ timeout: 120_000 });
        figures[build].signIn.push(performance.now() - started);
        await anonymous.context.close();

        const signedIn = await throttled(browser, { name: name!, value: value.join('='), url: base });
        started = performance.now();
        await signedIn.page.goto(`${base}/clusters/${clusterId}`, { waitUntil: 'commit' });
        await signedIn.page.getByRole('heading', { name: 'first-load' }).waitFor({ timeout: 120_000 });
        figures[build].overview.push(performance.now() - started);
        await signedIn.context.close();
      }
      progress(`run ${run + 1} of ${RUNS}`);
    }

    const row = (build: 'split' | 'one', label: string) => {
      const sizes = assetSizes(dirs[build]);
      return {
        build: label,
        'sign-in form ms (median)': Math.round(median(figures[build].signIn)),
        'sign-in min–max': `${Math.round(Math.min(...figures[build].signIn))}–${Math.round(Math.max(...figures[build].signIn))}`,
        'overview ms (median)': Math.round(median(figures[build].overview)),
        'overview min–max': `${Math.round(Math.min(...figures[build].overview))}–${Math.round(Math.max(...figures[build].overview))}`,
        'loaded first KB': sizes.firstKb,
        'gzipped KB': sizes.firstGzKb,
        served: build === 'split' ? 'gzipped' : 'as is',
        'all scripts KB': sizes.scriptsKb,
        scripts: sizes.scripts,
      };
    };
    console.table([row('one', 'one bundle (baseline)'), row('split', 'split (as shipped)')]);
    console.table([
      {
        'sign-in form: split / one bundle': (
          median(figures.split.signIn) / median(figures.one.signIn)
        ).toFixed(2),
        goal: '< 0.5',
        'overview: split / one bundle': (
          median(figures.split.overview) / median(figures.one.overview)
        ).toFixed(2),
      },
    ]);
  } finally {
    await browser.close();
    await Promise.all(Object.values(gateways).map((g) => g.stop()));
    await nats.stop();
    await database.drop();
    for (const dir of Object.values(dirs)) rmSync(dir, { recursive: true, force: true });
  }
}

runBench(__filename, main);
