import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); the flags keep it off a network this machine does not have. */
const CHROMIUM = process.env.STUDIO_E2E_CHROMIUM ?? '/usr/bin/chromium';

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

const ROOT = join(__dirname, '..', '..');
/** Committed, referenced from the README: what each screen and state looks like. */
const DOCS_SCREENSHOTS = join(ROOT, 'docs', 'screenshots');
/** Kept by CI as artifacts of the run. */
const RUN_SCREENSHOTS = join(ROOT, 'web', 'test-results', 'screenshots');

/**
 * Before a run: a scenario renamed or removed leaves no stale picture behind. A run narrowed
 * with `-t` keeps the committed pictures: clearing them there deleted every screen the run
 * did not visit.
 */
export function clearScreenshots(): void {
  const narrowed = process.argv.some((arg) => arg === '-t' || arg.startsWith('--testNamePattern'));
  for (const dir of narrowed ? [RUN_SCREENSHOTS] : [DOCS_SCREENSHOTS, RUN_SCREENSHOTS]) {
    mkdirSync(dir, { recursive: true });
    for (const file of readdirSync(dir)) if (file.endsWith('.png')) rmSync(join(dir, file));
  }
}

export async function screenshot(page: Page, name: string): Promise<void> {
  // Transitions finished, not caught half-way (a dialog opening read as a faded page).
  const image = await page.screenshot({ fullPage: false, animations: 'disabled' });
  writeFileSync(join(DOCS_SCREENSHOTS, `${name}.png`), image);
  writeFileSync(join(RUN_SCREENSHOTS, `${name}.png`), image);
}

/** The freshness indicator's state, as the page shows it (data-state on the header mark). */
export async function freshnessOf(page: Page): Promise<string | null> {
  return page.getByTestId('freshness').getAttribute('data-state');
}

/** A page already signed in with `session` (its cookie placed in a fresh browser context). */
export async function signedInPage(
  browser: Browser,
  baseUrl: string,
  session: { headers: Record<string, string> },
  viewport = { width: 1280, height: 800 },
): Promise<Page> {
  const [name, ...value] = (session.headers.Cookie ?? '').split('=');
  const context = await browser.newContext({ viewport });
  await context.addCookies([{ name: name!, value: value.join('='), url: baseUrl }]);
  return context.newPage();
}
