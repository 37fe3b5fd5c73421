import {
  artemis,
  brokerExec,
  brokerProfile,
  startBroker,
  depthOf,
  deadLetter,
  drainQueue,
  fillQueue,
  brokerJolokia,
  cleanStream,
  queueMbean,
  openAmqpClient,
  signIn,
  spawnService,
  TEST_ADMIN_PASSWORD,
  testBus,
  testConfig,
  waitFor,
  type ApiSession,
  type BrokerProfile,
  type ServiceProcess,
  writeQueueHours,
} from '@artemis-studio/testing';
import { ExportedMessageSchema, rpcs } from '@artemis-studio/contracts';
import axios from 'axios';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { clearScreenshots, freshnessOf, launchChromium, screenshot, signedInPage } from './browser';

/**
 * The console as an operator uses it: Debian's Chromium against the real stack (the four services
 * as their own processes, the built console served by the gateway) and the real test broker.
 */
describe('the console in Chromium, against the real stack and broker', () => {
  const PORTS = { gateway: 18780, 'event-store': 18781, scraper: 18782, notifier: 18783 } as const;
  const services: Partial<Record<keyof typeof PORTS, ServiceProcess>> = {};
  const clusterIds: string[] = [];
  let broker: BrokerProfile;
  let browser: Browser;
  let page: Page;
  let clusterId: string;
  /** The first admin, for what the scenarios arrange through the API. */
  let admin: ApiSession;
  const base = `http://127.0.0.1:${PORTS.gateway}`;
  const CLUSTER_NAME = `e2e-${randomUUID().slice(0, 8)}`;
  /** The queue the action scenarios purge, and the viewer's is shown. */
  const actionQueue = `e2e.actions.${randomUUID().slice(0, 8)}`;
  /** A dead-letter queue redriven by the operator, then seen by a viewer. */
  let redriveDlq = '';

  const start = async (name: keyof typeof PORTS) => {
    services[name] = await spawnService(
      name,
      PORTS[name],
      name === 'notifier' ? { LEASE_TTL_MS: '3000' } : {},
    );
  };
  const putSetting = (key: string, value: number) =>
    admin.fetch(`${base}/api/v1/settings/${key}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ value }),
    });
  const jolokia = (body: unknown) =>
    axios.post(broker.nodes[0].jolokiaUrl, body, {
      auth: { username: broker.user, password: broker.password },
      headers: { Origin: 'http://127.0.0.1' },
    });
  const state = () => freshnessOf(page);
  /** Fails with what the indicator said instead, so a failure explains itself. */
  const waitForState = async (wanted: string, timeoutMs = 30_000) => {
    try {
      await waitFor(`the indicator to read ${wanted}`, async () => (await state()) === wanted, {
        timeoutMs,
        intervalMs: 100,
      });
    } catch (error) {
      const said = await page.getByTestId('freshness').getAttribute('aria-label');
      throw new Error(`${(error as Error).message}; it said: ${said}`);
    }
  };

  /**
   * Waits for a queue's depth on its page as the scraper reads it. A timeout says what the page
   * showed, what the scraper logged last, and, last (what a truncated CI log keeps), what the API
   * answers for the queue now, what the indicator said, what the depth cell read and when the
   * page last asked for the queue's rows: a stale page and a stalled scraper read differently.
   */
  const waitForDepth = async (node: string, wanted: string, timeoutMs = 30_000) => {
    const depth = page.getByTestId(`depth-${node}`);
    try {
      await waitFor(
        `depth ${wanted}`,
        async () => (await depth.count()) > 0 && (await depth.innerText()) === wanted,
        { timeoutMs, intervalMs: 200 },
      );
    } catch (error) {
      const shown = await page
        .getByRole('main')
        .innerText({ timeout: 1000 })
        .catch(() => '(unreadable)');
      const logged = services.scraper?.output().trim().split('\n').slice(-20).join('\n');
      const queue = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1) ?? '');
      const answered = await admin
        .fetch(`${base}/api/v1/clusters/${clusterId}/queues?search=${encodeURIComponent(queue)}`)
        .then(async (r) => {
          const { items } = (await r.json()) as {
            items: { name: string; node: string; messageCount: number; observedAt: string }[];
          };
          return items.map((q) => `${q.name} on ${q.node}: ${q.messageCount}, observed ${q.observedAt}`);
        })
        .catch((e: Error) => [`(no answer: ${e.message})`]);
      const cell = await depth
        .allInnerTexts()
        .then((texts) => (texts.length === 0 ? '(no depth cell)' : texts.join(' | ')))
        .catch((e: Error) => `(unreadable: ${e.message})`);
      // When the page last asked for the queue's rows, and how long each answer took: a signal
      // never heard and an answer that never came read differently.
      const fetches = await page
        .evaluate(() =>
          performance
            .getEntriesByType('resource')
            .filter((e) => /\/queues\?/.test(e.name))
            .slice(-5)
            .map(
              (e) =>
                `${new Date(performance.timeOrigin + e.startTime).toISOString()} +${Math.round(e.duration)} ms`,
            ),
        )
        .catch((e: Error) => [`(unreadable: ${e.message})`]);
      throw new Error(
        `${(error as Error).message}\n--- the page showed:\n${shown.slice(0, 1500)}\n--- the scraper logged last:\n${logged}` +
          `\n--- at ${new Date().toISOString()} the API answers for ${queue}:\n${answered.join('\n') || '(no row)'}` +
          `\n--- the indicator said: ${await page
            .getByTestId('freshness')
            .getAttribute('aria-label', { timeout: 1000 })
            .catch(() => '(unreadable)')}` +
          `\n--- its depth cell read: ${cell}; the page last asked for queues at: ${fetches.join(', ') || '(never)'}`,
      );
    }
  };

  beforeAll(async () => {
    if (!existsSync(join(__dirname, '..', 'dist', 'index.html')))
      throw new Error('web/dist is missing: build the console first (npm run build -w web)');
    broker = await brokerProfile(testConfig.brokerProfile);
    for (const name of ['event-store', 'scraper', 'notifier', 'gateway'] as const) await start(name);
    admin = await signIn(base);
    // Faster polling than the defaults, so the scenarios take seconds rather than minutes.
    await putSetting('artemis-studio.scrape.tier-a-millis', 2000);
    await putSetting('artemis-studio.scrape.tier-b-millis', 2000);
    clearScreenshots();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const id of clusterIds)
      await admin?.fetch(`${base}/api/v1/clusters/${id}`, { method: 'DELETE' }).catch(() => undefined);
    await Promise.all(Object.values(services).map((s) => s?.stop()));
    await cleanStream({ clusterIds });
  });

  it('signs the first admin in with a password, and remembers them across a reload', async () => {
    await page.goto(`${base}/clusters`);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.waitFor();
    await form.getByLabel('Username').fill('admin');
    await form.locator('input[type=password]').fill('not the password');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong username or password.').waitFor();
    await screenshot(page, '00-sign-in');
    await form.locator('input[type=password]').fill(TEST_ADMIN_PASSWORD);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Signed in as admin (admin)' }).waitFor();
    await page.reload();
    await page.getByTestId('user-menu').waitFor();
    // The session is an HttpOnly cookie: no script of the page can read it.
    expect(await page.evaluate('document.cookie')).not.toContain('studio_session');
  });

  it('registers the broker from the empty state and shows its node live with the notification verdict', async () => {
    await page.goto(`${base}/`);
    await page.getByText('No cluster yet').waitFor();
    await waitForState('polling');
    await screenshot(page, '01-clusters-empty');

    await page.getByRole('button', { name: 'Register a cluster' }).first().click();
    const form = page.getByRole('form', { name: 'Register a cluster' });
    // The contracts' own validation, before anything is sent.
    await form.getByLabel('Cluster name').fill(CLUSTER_NAME);
    await form.getByLabel('Node name').fill(broker.nodes[0].name);
    await form.getByLabel('Jolokia URL').fill('not a url');
    await form.getByRole('button', { name: 'Register' }).click();
    await form.getByText('must be an http:// or https:// URL').waitFor();
    await form.getByLabel('Jolokia URL').fill(broker.nodes[0].jolokiaUrl);
    await form.getByLabel('AMQP URL').fill(broker.nodes[0].amqpUrl);
    await form.getByLabel('Username').first().fill(broker.user);
    await form.getByLabel('Password').first().fill(broker.password);
    // Alert rules to start with: none unless ticked (one here; the alerting test saves another later).
    const startWith = form.getByRole('group', { name: 'Alert rules to start with' });
    expect(await startWith.getByRole('checkbox', { checked: true }).count()).toBe(0);
    await startWith.getByLabel('Node unreachable (critical)').check();
    await screenshot(page, '02-register-cluster');
    await form.getByRole('button', { name: 'Register' }).click();

    await page.waitForURL(/\/clusters\/[0-9a-f-]{36}$/);
    clusterId = page.url().split('/').pop()!;
    clusterIds.push(clusterId);
    const node = page.getByTestId(`node-${broker.nodes[0].name}`);
    await node.getByText('live').waitFor({ timeout: 30_000 });
    await node.getByText('reachable').waitFor();
    await page.getByText('Notifications on', { exact: true }).waitFor({ timeout: 30_000 });
    // Read from Studio's ring on the broker: a notifier restart loses nothing (ADR-0015).
    await page
      .getByTestId('notification-mode')
      .getByText('durable', { exact: true })
      .waitFor({ timeout: 30_000 });
    await page.getByText(/reading Studio's durable ring of notifications/).waitFor();
    await waitForState('live');
    await screenshot(page, '03-overview-live');
    await page.getByRole('button', { name: 'Toggle the colour scheme' }).click();
    await screenshot(page, '03-overview-live-dark');
    await page.getByRole('button', { name: 'Toggle the colour scheme' }).click();

    // The stored secret never comes back: the edit form can only replace or remove it.
    await page
      .getByRole('navigation', { name: 'Cluster screens' })
      .getByRole('link', { name: 'Settings' })
      .click();
    await page.getByText('A credential is stored (never shown)').first().waitFor();
    // The rule ticked at registration is saved, and only that one.
    const rules = (await (await admin.fetch(`${base}/api/v1/clusters/${clusterId}/alert-rules`)).json()) as {
      items: { name: string }[];
    };
    expect(rules.items.map((r) => r.name)).toEqual(['Node unreachable']);
    const edit = page.getByRole('form', { name: 'Edit cluster' });
    expect(await edit.getByLabel('Password').first().inputValue()).toBe('');
    expect(await edit.getByLabel('Username').first().inputValue()).toBe('');
    // Which replica serves the cluster: the one scraper and the one notifier of this stack.
    for (const service of ['scraper', 'notifier'])
      await page.getByTestId(`owner-${service}`).getByText(/since/).waitFor({ timeout: 30_000 });
    await screenshot(page, '04-cluster-settings');
    await page.getByTestId('owner-notifier').scrollIntoViewIfNeeded();
    await screenshot(page, '04-cluster-owners');
    await page.evaluate('window.scrollTo(0, 0)');
  }, 90_000);

  it('pauses: a queue created meanwhile waits as an update until Resume brings it in', async () => {
    await page.goto(`${base}/clusters/${clusterId}`);
    // The command palette goes to a screen by name: once the page is there to listen for the keys.
    await waitForState('live');
    await page.keyboard.press('Control+K');
    await page.getByRole('textbox', { name: 'Command' }).fill('Queues');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/clusters/${clusterId}/queues`);
    await waitForState('live');
    // Exactly: a role's name matches by substring, and the overview's "Deepest queues" and
    // "Fastest-growing queues" tables can still be on screen while the queues page loads.
    await page.getByRole('table', { name: 'Queues', exact: true }).waitFor();
    // Narrowed to the queues of this test, as a person would: the table shows only the rows in view.
    await page.getByRole('textbox', { name: 'Search queues' }).fill('e2e.paused.');
    await page.waitForURL(/search=e2e.paused./);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await waitForState('paused');

    const queue = `e2e.paused.${randomUUID().slice(0, 8)}`;
    const { data } = await jolokia({
      type: 'exec',
      mbean: `org.apache.activemq.artemis:broker="${broker.nodes[0].name}"`,
      operation: 'createQueue(java.lang.String,boolean)',
      arguments: [JSON.stringify({ name: queue, address: queue, 'routing-type': 'ANYCAST' }), true],
    });
    expect(data.status).toBe(200);
    await waitFor(
      'an update waiting',
      async () => /\d+ updates? waiting/.test(await page.getByTestId('freshness-age').innerText()),
      { timeoutMs: 30_000 },
    );
    expect(await page.getByText(queue).count()).toBe(0);
    await screenshot(page, '05-paused-updates-waiting');

    await page.getByRole('button', { name: /^Resume/ }).click();
    await page.getByRole('cell', { name: queue, exact: true }).first().waitFor({ timeout: 10_000 });
    await waitForState('live');
    await screenshot(page, '06-queues-resumed');
  }, 90_000);

  it('shows a queue filling on its depth chart, with its consumer on the timeline, without a reload', async () => {
    const queue = `e2e.chart.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      await sender.send({ body: 'first' });
      await page.goto(`${base}/clusters/${clusterId}/queues?search=${queue}`);
      await page.getByRole('link', { name: queue }).click();
      await page.waitForURL(`${base}/clusters/${clusterId}/queues/${queue}`);
      await waitForDepth(broker.nodes[0].name, '1');

      for (let i = 0; i < 24; i++) await sender.send({ body: `message ${i}` });
      await waitForDepth(broker.nodes[0].name, '25');
      const chart = page.getByTestId('depth-chart');
      await waitFor(
        'depth 25 on the chart',
        async () => (await chart.getAttribute('data-last-depth')) === '25',
        {
          timeoutMs: 30_000,
        },
      );
      // Beside the depth: how long the oldest of them has waited, charted from the same samples.
      await page.getByRole('img', { name: `Oldest message's wait of ${queue}, last 1h` }).waitFor();
      // The queue's address holds those 25 messages in memory: its chart says so in bytes.
      const addressState = page.getByTestId('address-state');
      await waitFor(
        "the address's bytes in memory",
        async () =>
          /^Now not paging, \d+% of its limit, [\d.,]+ KB in memory\.$/.test(
            (await addressState.count()) > 0 ? await addressState.innerText() : '',
          ),
        { timeoutMs: 30_000 },
      );
      await addressState.scrollIntoViewIfNeeded();
      await screenshot(page, '06-queue-detail-address');
      await page.evaluate('window.scrollTo(0, 0)');
      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] }, credit_window: 0 });
      await page
        .getByRole('button', { name: /CONSUMER_CREATED/ })
        .first()
        .waitFor({ timeout: 30_000 });
      await screenshot(page, '06-queue-detail-chart');

      // The overview's last hour per node: the messages just sent, and connections (ours and the notifier's).
      await page.goto(`${base}/clusters/${clusterId}`);
      const node = page.getByTestId(`node-activity-${broker.nodes[0].name}`);
      const sparkline = (what: RegExp) => node.getByRole('img', { name: what });
      await waitFor(
        'the node sparklines',
        async () =>
          /: [1-9][\d,]* now$/.test(
            (await sparkline(/^Connections on node/).getAttribute('aria-label')) ?? '',
          ) &&
          /: [1-9][\d,]* now$/.test(
            (await sparkline(/^Messages waiting on node/).getAttribute('aria-label')) ?? '',
          ) &&
          // The journal's disk, as the broker measures it (known after its first disk scan).
          /: \d+% now$/.test(
            (await sparkline(/^Journal disk used on node/).getAttribute('aria-label')) ?? '',
          ),
        { timeoutMs: 30_000 },
      );
      await screenshot(page, '06-overview-sparklines');

      // The same cluster over a week, read from its nodes' minute rollups (ADR-0020): the messages
      // just sent are on it too, and the range is in the link.
      await page.getByText('7d', { exact: true }).click();
      await waitFor(
        "the week's sparklines",
        async () =>
          /, last 7 days: [1-9][\d,]* now$/.test(
            (await sparkline(/^Messages waiting on node/).getAttribute('aria-label')) ?? '',
          ),
        { timeoutMs: 30_000 },
      );
      expect(new URL(page.url()).searchParams.get('range')).toBe('7d');
      await page.getByRole('img', { name: 'Depth of the cluster, last 7 days' }).waitFor();
      await screenshot(page, '06-overview-week');
    } finally {
      await client.close();
    }
  }, 120_000);

  it("holds a queue's live events while paused, and brings them onto its timeline on Resume", async () => {
    const queue = `e2e.held.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      await sender.send({ body: 'waiting' });
      await page.goto(`${base}/clusters/${clusterId}/queues/${encodeURIComponent(queue)}`);
      await waitForDepth(broker.nodes[0].name, '1');
      await waitForState('live');
      await page.getByRole('button', { name: 'Pause', exact: true }).click();
      await waitForState('paused');

      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] }, credit_window: 0 });
      // The event reached the page and is held: counted, and not on the timeline.
      await page.getByTestId('events-held').getByText('1 new, shown on Resume').waitFor({ timeout: 30_000 });
      expect(await page.getByRole('button', { name: /CONSUMER_CREATED/ }).count()).toBe(0);
      await screenshot(page, '06-queue-detail-paused-events-held');

      await page.getByRole('button', { name: /^Resume/ }).click();
      await page
        .getByRole('button', { name: /CONSUMER_CREATED/ })
        .first()
        .waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('events-held').count()).toBe(0);
      await waitForState('live');
    } finally {
      await client.close();
    }
  }, 90_000);

  it('reads Reconnecting… while the gateway is down, then Live with the events that happened meanwhile', async () => {
    await page.goto(`${base}/clusters/${clusterId}/events`);
    await waitForState('live');
    await page.getByRole('table', { name: 'Broker events' }).waitFor({ timeout: 30_000 });

    await services.gateway!.stop();
    await waitForState('reconnecting', 10_000);
    await screenshot(page, '07-gateway-down-reconnecting');

    const queue = `e2e.away.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
      await start('gateway');
      await waitForState('live', 45_000);
      await page
        .getByRole('row')
        .filter({ hasText: queue })
        .filter({ hasText: 'CONSUMER_CREATED' })
        .waitFor({ timeout: 15_000 });
      await screenshot(page, '08-back-live-with-missed-events');
    } finally {
      await client.close();
    }
  }, 120_000);

  it('reads Offline with the reason while the event store is down, and Live by itself once it is back', async () => {
    await page.goto(`${base}/clusters/${clusterId}/events`);
    await waitForState('live');
    await services['event-store']!.kill();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await waitForState('offline', 30_000);
    await page.getByTestId('freshness').hover();
    const why = await page.getByTestId('freshness-explanation').innerText();
    expect(why).toMatch(/the event history failed at .*event history unavailable/i);
    await screenshot(page, '09-event-store-down-offline');

    // No click: the failed query is tried again with the stream's backoff (at most 30 s apart),
    // and the indicator returns to Live by itself once the event store answers.
    await start('event-store');
    await waitForState('live', 45_000);
  }, 90_000);

  it("loses nothing when the notifier crashes while the broker's ring holds its notifications", async () => {
    await page.goto(`${base}/clusters/${clusterId}/events`);
    await waitForState('live');
    await page.getByRole('table', { name: 'Broker events' }).waitFor({ timeout: 30_000 });

    await services.notifier!.kill();
    // Caused while no notifier runs: the ring keeps it for the next one (ADR-0015).
    const queue = `e2e.crash.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
      await start('notifier');
      await page.getByRole('row').filter({ hasText: queue }).first().waitFor({ timeout: 30_000 });
    } finally {
      await client.close();
    }
    expect(
      await page.getByTestId('unobserved').filter({ hasText: 'stopped without handing over' }).count(),
    ).toBe(0);
    await screenshot(page, '09-notifier-crash-durable');
  }, 90_000);

  it('says where the history has a hole when the notifier crashed without a ring, as soon as it is back', async () => {
    const mode = async () =>
      (
        (await (await admin.fetch(`${base}/api/v1/clusters/${clusterId}`)).json()) as {
          capabilities: { notifications: { mode?: string } };
        }
      ).capabilities.notifications.mode;
    await putSetting('artemis-studio.notifications.ring-size', 0);
    await waitFor('the notifier on a subscription of its own', async () => (await mode()) === 'non-durable', {
      timeoutMs: 30_000,
    });
    await page.goto(`${base}/clusters/${clusterId}/events`);
    await waitForState('live');
    await page.getByRole('table', { name: 'Broker events' }).waitFor({ timeout: 30_000 });

    await services.notifier!.kill();
    await start('notifier');
    // Streamed live, with no reload: the replacement took the cluster over and read the mark.
    const row = page.getByTestId('unobserved').filter({ hasText: 'stopped without handing over' });
    await row.first().waitFor({ timeout: 30_000 });
    expect(await row.first().innerText()).toMatch(
      /^Broker events may be missing between .+ and .+ \(\d+ s\)\. Notifications were not observed: the notifier holding the subscriptions stopped without handing over .*\.$/,
    );
    await screenshot(page, '09-notifier-crash-unobserved');

    // Filtered on a queue that had no event, from the history: what went unobserved may have
    // been that queue's, so the period stands in every filtered feed too.
    await page.goto(`${base}/clusters/${clusterId}/events?queue=e2e.quiet`);
    await page
      .getByTestId('unobserved')
      .filter({ hasText: 'stopped without handing over' })
      .first()
      .waitFor({ timeout: 30_000 });
    await screenshot(page, '09-notifier-crash-unobserved-filtered');
    await putSetting('artemis-studio.notifications.ring-size', 100_000);
    await waitFor('durable again', async () => (await mode()) === 'durable', { timeoutMs: 30_000 });
  }, 120_000);

  it('lists the live consumers, sessions and connections read from the broker', async () => {
    const queue = `e2e.live.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
      await page.goto(`${base}/clusters/${clusterId}/consumers`);
      const consumers = page.getByRole('table', { name: 'Consumers' });
      await consumers.getByText(queue).first().waitFor({ timeout: 30_000 });
      await page.getByRole('textbox', { name: 'Search consumers' }).fill(queue);
      await waitFor('only its consumer', async () => (await consumers.getByRole('row').count()) === 2);
      await screenshot(page, '10-consumers');
      // From the consumer to its session, as an operator follows a trail.
      await consumers.getByRole('row').nth(1).getByRole('link').first().click();
      await page.waitForURL(/\/sessions\?search=/);
      const sessions = page.getByRole('table', { name: 'Sessions' });
      await waitFor('its session alone', async () => (await sessions.getByRole('row').count()) === 2);
      await page
        .getByRole('navigation', { name: 'Cluster screens' })
        .getByRole('link', { name: 'Sessions' })
        .click();
      await page.getByRole('table', { name: 'Sessions' }).waitFor({ timeout: 30_000 });
      await screenshot(page, '10-sessions');
      await page
        .getByRole('navigation', { name: 'Cluster screens' })
        .getByRole('link', { name: 'Connections' })
        .click();
      await page.getByRole('table', { name: 'Connections' }).waitFor({ timeout: 30_000 });
      await screenshot(page, '10-connections');
    } finally {
      await client.close();
    }
  }, 90_000);

  it('scrolls the events back past the first page, and filters them by type', async () => {
    const queue = `e2e.many.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      // 150 consumers come and go: 300 consumer events, more than one page of history (200).
      for (let i = 0; i < 150; i++) {
        const receiver = await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
        await receiver.close();
      }
    } finally {
      await client.close();
    }
    const history = async () =>
      (
        (await (
          await admin.fetch(`${base}/api/v1/clusters/${clusterId}/events?queue=${queue}&limit=500`)
        ).json()) as {
          items: unknown[];
        }
      ).items.length;
    await waitFor('the 300 consumer events stored', async () => (await history()) >= 300, {
      timeoutMs: 60_000,
    });

    await page.goto(`${base}/clusters/${clusterId}/events?queue=${queue}`);
    const shown = async () =>
      Number((await page.getByText(/events shown/).innerText()).match(/^([\d,]+)/)![1].replace(/,/g, ''));
    await waitFor('the first page', async () => (await shown()) === 200, { timeoutMs: 15_000 });
    const feed = page.getByRole('table', { name: 'Broker events' });
    await waitFor(
      'older pages read while scrolling',
      async () => {
        await feed.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
        return (await shown()) >= 300;
      },
      { timeoutMs: 15_000 },
    );
    await screenshot(page, '10-events-scrolled-back');

    await page.getByLabel('Type').fill('CONSUMER_CLOSED');
    await page.getByLabel('Type').press('Enter');
    await waitFor('150 closes', async () => (await shown()) === 150, { timeoutMs: 15_000 });
    // Beside them, any unobserved period of the cluster (a filtered feed shows those too).
    const types = (await feed.getByRole('row').allInnerTexts())
      .slice(1)
      .filter((row) => !row.startsWith('Broker events may be missing'));
    expect(types.every((row) => row.includes('CONSUMER_CLOSED'))).toBe(true);
  }, 120_000);

  it('states the events lost, where and over which period, as soon as any were', async () => {
    // What the notifier reports when its buffer overflows, sent as it sends it, to the real event store.
    const bus = testBus('e2e-drops');
    try {
      await bus.ready();
      for (const ts of ['2026-11-30T10:42:00.000Z', '2026-11-30T10:44:00.000Z'])
        await bus.request(rpcs.recordDrops, {
          reportId: randomUUID(),
          clusterId,
          source: 'notifier',
          count: 6,
          reason: 'the notifier buffer was full',
          ts,
        });
    } finally {
      await bus.close();
    }
    await page.goto(`${base}/clusters/${clusterId}/events`);
    const alert = page.getByTestId('dropped');
    await alert.waitFor({ timeout: 15_000 });
    const text = await alert.innerText();
    expect(text).toContain('12 broker events of this cluster were dropped');
    expect(text).toMatch(/12 events lost at the notifier \(never on the bus\), between .+ and .+/);
    await screenshot(page, '10-events-lost');
  }, 60_000);

  it('shows the runtime settings with what each one does', async () => {
    await page.goto(`${base}/settings`);
    await page.getByText('artemis-studio.stream.heartbeat-millis').waitFor();
    await page.getByText('How often every live stream gets a ping').waitFor();
    await screenshot(page, '11-settings');
  });

  it('creates a queue and sends it a message from the console, and reads it back', async () => {
    const queue = `e2e.created.${randomUUID().slice(0, 8)}`;
    await page.goto(`${base}/clusters/${clusterId}/queues?search=${queue}`);
    await page.getByRole('button', { name: 'Create queue…' }).click();
    const create = page.getByRole('form', { name: 'Create a queue' });
    await create.getByRole('textbox', { name: 'Name' }).fill(queue);
    await screenshot(page, '15-queue-create');
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByText(`${queue} created on ${broker.nodes[0].name}`).waitFor({ timeout: 30_000 });
    await page.getByRole('link', { name: queue }).click({ timeout: 30_000 });
    await page.waitForURL(`${base}/clusters/${clusterId}/queues/${queue}`);

    await page.getByRole('button', { name: 'Send message…' }).click();
    const send = page.getByRole('form', { name: 'Send a message' });
    await send.getByRole('textbox', { name: 'Body' }).fill('{"order": 42}');
    await send.getByRole('textbox', { name: 'Headers' }).fill('kind=order');
    await screenshot(page, '15-queue-send-message');
    await send.getByRole('button', { name: 'Send' }).click();
    await page.getByText(`Sent to ${queue} on ${broker.nodes[0].name}`).waitFor({ timeout: 30_000 });
    await page
      .getByRole('table', { name: 'Messages' })
      .getByText('{"order": 42}')
      .waitFor({ timeout: 30_000 });

    // Fixed and sent again from the drawer: the draft is the message as it is, and the original
    // goes once the new one is accepted.
    const table = page.getByRole('table', { name: 'Messages' });
    await table.getByText('{"order": 42}').click();
    await page.getByTestId('message-drawer').getByRole('button', { name: 'Edit and resend…' }).click();
    const resend = page.getByRole('form', { name: /^Edit and resend message / });
    expect(await resend.getByRole('textbox', { name: 'Headers' }).inputValue()).toContain('kind=order');
    await resend.getByRole('textbox', { name: 'Body' }).fill('{"order": 43}');
    await resend.getByLabel(/^Remove the original/).check();
    await screenshot(page, '15-queue-message-resend');
    await resend.getByRole('button', { name: 'Send' }).click();
    await resend.waitFor({ state: 'detached', timeout: 30_000 });
    await page.keyboard.press('Escape');
    await table.getByText('{"order": 43}').waitFor({ timeout: 30_000 });
    await waitFor(
      'the original to be removed',
      async () => (await table.getByText('{"order": 42}').count()) === 0,
      {
        timeoutMs: 30_000,
      },
    );

    // Bytes go in as base64 and read back as bytes: hex in the table, hex or base64 in the drawer;
    // typed properties make it go over AMQP, and they read back typed.
    await page.getByRole('button', { name: 'Send message…' }).click();
    await send.getByText('Bytes (Base64)').click();
    await send.getByRole('textbox', { name: 'Body' }).fill('//4AQQ==');
    await send.getByRole('textbox', { name: 'Headers' }).fill('attempt:int=3\nurgent:boolean=true');
    await send.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Read again' }).click();
    const row = page.getByRole('table', { name: 'Messages' }).getByText('bytes: ff fe 00 41');
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    const drawer = page.getByTestId('message-drawer');
    await drawer.getByTestId('message-body').getByText('00000000  ff fe 00 41').waitFor();
    await drawer.getByText('"applicationProperties.attempt": 3', { exact: false }).waitFor();
    await drawer.getByText('"applicationProperties.urgent": true', { exact: false }).waitFor();
    await screenshot(page, '15-queue-message-bytes');
    await drawer.getByText('Base64', { exact: true }).click();
    await drawer.getByTestId('message-body').getByText('//4AQQ==').waitFor();
    await page.keyboard.press('Escape');

    // Taken out as NDJSON, as a download: both messages, properties typed, bodies whole.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#queue-messages').getByTestId('export-messages').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^e2e\.created\..+\.ndjson$/);
    const lines = (await readFile(await download.path(), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => ExportedMessageSchema.parse(JSON.parse(line)));
    expect(lines.map((m) => m.body.data).sort()).toEqual(['//4AQQ==', '{"order": 43}']);
    const bytes = lines.find((m) => m.body.encoding === 'base64')!;
    expect(bytes.properties).toEqual(
      expect.arrayContaining([
        { name: 'attempt', type: 'int', value: '3' },
        { name: 'urgent', type: 'boolean', value: 'true' },
      ]),
    );

    // And put back: the file checked line by line first, then imported (the queue holds both twice).
    await page.getByRole('button', { name: 'Import NDJSON…' }).click();
    const importing = page.getByRole('form', { name: `Import messages into ${queue}` });
    await importing.locator('input[type="file"]').setInputFiles(await download.path());
    await importing
      .getByTestId('import-checked')
      .getByText(`2 messages, every line checked: they would go to ${queue} on ${broker.nodes[0].name}.`)
      .waitFor({ timeout: 30_000 });
    await screenshot(page, '15-queue-import-checked');
    await importing.getByRole('button', { name: 'Import 2 messages' }).click();
    await page.getByText(`Imported 2 messages into ${queue}`).waitFor({ timeout: 30_000 });
    await waitFor('the queue to hold four', async () => (await depthOf(broker, queue)) === 4, {
      timeoutMs: 30_000,
    });
  }, 90_000);

  it('creates an address, then deletes it with its queue only when asked to, from the console', async () => {
    const address = `e2e.address.${randomUUID().slice(0, 8)}`;
    await page.goto(`${base}/clusters/${clusterId}/queues`);
    await page.getByRole('button', { name: 'Create address…' }).click();
    const create = page.getByRole('form', { name: 'Create an address' });
    await create.getByRole('textbox', { name: 'Name' }).fill(address);
    await create.getByRole('button', { name: 'Create' }).click();
    await page.getByText(`address ${address} created`).waitFor({ timeout: 30_000 });
    // A queue bound to it: the broker refuses the deletion until the queues are asked to go too.
    await page.getByRole('button', { name: 'Create queue…' }).click();
    const queue = page.getByRole('form', { name: 'Create a queue' });
    await queue.getByRole('textbox', { name: 'Name' }).fill(`${address}.q`);
    await queue.getByRole('textbox', { name: 'Address' }).fill(address);
    await queue.getByRole('button', { name: 'Create' }).click();
    await page.getByText(`${address}.q created on`).waitFor({ timeout: 30_000 });

    await page.getByRole('button', { name: 'Delete address…' }).click();
    const remove = page.getByRole('form', { name: 'Delete an address' });
    await remove.getByRole('textbox', { name: 'Address', exact: true }).fill(address);
    await remove.getByRole('textbox', { name: "Type the address's name to confirm" }).fill(address);
    await remove.getByRole('button', { name: 'Delete' }).click();
    await remove
      .getByRole('alert')
      .or(remove.locator('.mantine-Alert-root'))
      .first()
      .waitFor({ timeout: 30_000 });
    await remove.getByLabel('Delete its queues too, with their messages').check();
    await screenshot(page, '15-address-delete');
    await remove.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`address ${address} deleted`).waitFor({ timeout: 30_000 });
  }, 90_000);

  it('purges a queue from the console: the broker counts first, the confirmation says so, the depth drops', async () => {
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      const sender = await client.createAwaitableSender({
        target: { address: actionQueue, capabilities: ['queue'] },
      });
      for (let i = 0; i < 30; i++) await sender.send({ body: `to purge ${i}` });
    } finally {
      await client.close();
    }
    await page.goto(`${base}/clusters/${clusterId}/queues/${actionQueue}`);
    await waitForDepth(broker.nodes[0].name, '30');

    // What is in it, before it goes: the broker's own view of each message.
    const table = page.getByRole('table', { name: 'Messages' });
    await table.getByText('to purge 0', { exact: true }).waitFor({ timeout: 30_000 });
    await page
      .getByTestId('messages-count')
      .getByText(`30 on node ${broker.nodes[0].name}`, { exact: false })
      .waitFor();
    await table.getByText('to purge 0', { exact: true }).click();
    const drawer = page.getByTestId('message-drawer');
    await drawer.getByText('to purge 0', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Next' }).click();
    await drawer.getByText('to purge 1', { exact: true }).waitFor();
    await screenshot(page, '15-queue-message-drawer');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    // Next from a page's last message reads the next page and shows its first; Previous goes back.
    await table.getByText('to purge 24', { exact: true }).click();
    await drawer.getByText('to purge 24', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Next' }).click();
    await drawer.getByText('to purge 25', { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByTestId('messages-count').getByText('page 2', { exact: false }).waitFor();
    await drawer.getByRole('button', { name: 'Previous' }).click();
    await drawer.getByText('to purge 24', { exact: true }).waitFor({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    await page.getByRole('button', { name: 'Purge…' }).click();
    const dialog = page.getByTestId('queue-action-confirmation');
    await dialog
      .getByText(`Purge 30 messages from ${actionQueue} on node ${broker.nodes[0].name}?`)
      .waitFor();
    await screenshot(page, '15-queue-purge-confirmation');
    await dialog.getByRole('button', { name: 'Purge 30 messages' }).click();
    await page.getByText(`${actionQueue} purged`).waitFor({ timeout: 30_000 });
    await waitForDepth(broker.nodes[0].name, '0');
    await page.getByText('No message on this page.').waitFor({ timeout: 30_000 });
    await screenshot(page, '15-queue-purged');

    // The audit trail says who purged how many, node by node.
    const audit = (await (
      await admin.fetch(`${base}/api/v1/audit?action=queue.purge&clusterId=${clusterId}`)
    ).json()) as { items: { target: string; detail: { messages: number } }[] };
    expect(audit.items.find((e) => e.target === actionQueue)?.detail.messages).toBe(30);
  }, 90_000);

  it('protects a queue: purged only by an administrator who says why, never deleted until the protection is lifted', async () => {
    const tag = randomUUID().slice(0, 8);
    const queue = `e2e.protected.${tag}`;
    await fillQueue(broker, queue, 3);
    // Marked from its own page by an administrator, with why.
    await page.goto(`${base}/clusters/${clusterId}/queues/${queue}`);
    await page.getByRole('button', { name: 'Protect…' }).click();
    await page.getByLabel('Why it is protected').fill('the payments team replays these');
    await page.getByRole('button', { name: `Protect ${queue}` }).click();
    await page.getByTestId('queue-protected').waitFor({ timeout: 30_000 });
    await waitForDepth(broker.nodes[0].name, '3');
    await page.getByRole('button', { name: 'Purge…' }).click();
    const dialog = page.getByTestId('queue-action-confirmation');
    await dialog.getByTestId('protected-queue').getByText('the payments team replays these').waitFor();
    const confirm = dialog.getByRole('button', { name: 'Purge 3 messages' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Why (kept in the audit trail)').fill('replayed to staging, ticket OPS-42');
    await screenshot(page, '22-protected-purge');
    await confirm.click();
    await page.getByText(`${queue} purged`).waitFor({ timeout: 30_000 });
    await waitForDepth(broker.nodes[0].name, '0');
    const audit = (await (
      await admin.fetch(`${base}/api/v1/audit?action=queue.purge&clusterId=${clusterId}`)
    ).json()) as { items: { target: string; outcome: string; detail: { reason?: string } }[] };
    expect(audit.items.find((e) => e.target === queue && e.outcome === 'success')?.detail.reason).toBe(
      'replayed to staging, ticket OPS-42',
    );

    await page.getByRole('button', { name: 'Delete queue…' }).click();
    await dialog.getByText(/cannot be deleted until an administrator lifts its protection/).waitFor();
    expect(await dialog.getByRole('button', { name: 'Delete queue' }).isDisabled()).toBe(true);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Listed in the cluster's settings with the suggestions; lifted there (audited), it is an
    // ordinary queue again.
    await page.goto(`${base}/clusters/${clusterId}/settings`);
    const patterns = page.getByRole('table', { name: 'Protected patterns' });
    await patterns.getByText(queue, { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Protect *.DLQ' }).waitFor();
    await screenshot(page, '22-protections');
    await page.getByRole('button', { name: `Lift the protection of ${queue}` }).click();
    await patterns.waitFor({ state: 'detached', timeout: 30_000 });
  }, 90_000);

  it("opens a queue's masked bodies to an administrator for a while, and masks them again when it ends, without a reload", async () => {
    const queue = `e2e.unmasked.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      await sender.send({ body: '{"card":"4111111111111111","amount":12}' });
    } finally {
      await client.close();
    }
    const masking = (bodyPaths: string[]) =>
      admin.fetch(`${base}/api/v1/clusters/${clusterId}`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ masking: { properties: [], bodyPaths } }),
      });
    expect((await masking(['$.card'])).status).toBe(200);
    try {
      await page.goto(`${base}/clusters/${clusterId}/queues/${queue}`);
      const table = page.getByRole('table', { name: 'Messages' });
      await table.getByText('"card":"***"', { exact: false }).waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Open unmasked bodies…' }).click();
      await page.getByLabel('Minutes').fill('5');
      await page.getByLabel('Why', { exact: true }).fill('the customer disputes the charge');
      await page.getByLabel('Ticket (optional)').fill('SUP-981');
      await page.getByRole('button', { name: 'Open for 5 min' }).click();
      await page
        .getByTestId('unmasked-window')
        .getByText(/SUP-981/)
        .waitFor({ timeout: 30_000 });
      await table.getByText('4111111111111111', { exact: false }).waitFor({ timeout: 30_000 });
      await screenshot(page, '23-unmasked-window');
      const audit = (await (
        await admin.fetch(`${base}/api/v1/audit?action=message.view-unmasked&clusterId=${clusterId}`)
      ).json()) as { items: { target: string; detail: { messageIds: string[] } }[] };
      expect(audit.items.find((e) => e.target === queue)?.detail.messageIds).toHaveLength(1);
      await page.getByRole('button', { name: 'End now' }).click();
      await page.getByTestId('unmasked-window').waitFor({ state: 'detached', timeout: 30_000 });
      await table.getByText('"card":"***"', { exact: false }).waitFor({ timeout: 30_000 });
      expect(await table.getByText('4111111111111111', { exact: false }).count()).toBe(0);
    } finally {
      await masking([]);
    }
  }, 90_000);

  it('finds messages by what their bodies hold, typed in the browse box, and moves exactly those', async () => {
    const orders = `e2e.body.${randomUUID().slice(0, 8)}`;
    const rejected = `${orders}.rejected`;
    await fillQueue(broker, orders, 60, (i) => ({
      message_id: `order-${i}`,
      durable: true,
      body: JSON.stringify({ order: i, status: i % 10 === 3 ? 'REJECTED' : 'OK' }),
    }));
    const made = await admin.fetch(`${base}/api/v1/clusters/${clusterId}/queues`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ name: rejected }),
    });
    expect(made.status).toBe(200);
    await page.goto(`${base}/clusters/${clusterId}/queues/${orders}`);
    await waitForDepth(broker.nodes[0].name, '60');

    // An expression that does not parse is said under the body filter, where it was typed.
    const bodyFilter = page.getByTestId('body-filter');
    await bodyFilter.fill('body.status ==');
    await bodyFilter.press('Enter');
    await page.getByText(/^body filter: .*1:/).waitFor({ timeout: 30_000 });
    await page.locator('#queue-messages').scrollIntoViewIfNeeded();
    await screenshot(page, '15-queue-body-filter-error');

    await bodyFilter.fill('body.status == "REJECTED"');
    await bodyFilter.press('Enter');
    await page
      .getByTestId('messages-count')
      .getByText('6 match of 60 read (the whole queue)', { exact: false })
      .waitFor({ timeout: 30_000 });
    const table = page.getByRole('table', { name: 'Messages' });
    expect(await table.getByRole('row').count()).toBe(7);
    await table.getByText('{"order":53,"status":"REJECTED"}', { exact: true }).waitFor();
    await page.locator('#queue-messages').scrollIntoViewIfNeeded();
    await screenshot(page, '15-queue-body-filter');

    await page.getByRole('button', { name: 'Move matching…' }).click();
    const dialog = page.getByTestId('message-job-confirmation');
    await dialog
      .getByTestId('message-job-scan')
      .getByText(/6 match of 60 read/)
      .waitFor({ timeout: 30_000 });
    await dialog.getByLabel('To queue').fill(rejected);
    await dialog
      .getByText(`whose body matches body.status == "REJECTED" from ${orders} to ${rejected}`, {
        exact: false,
      })
      .waitFor();
    await screenshot(page, '15-queue-body-filter-move');
    await dialog.getByRole('button', { name: /^Move 6 messages/ }).click();
    const job = page.getByTestId('message-job').first();
    await waitFor('the move to end', async () => (await job.getAttribute('data-status')) === 'done', {
      timeoutMs: 60_000,
    });
    await waitForDepth(broker.nodes[0].name, '54');
    const left = await brokerJolokia(broker, {
      type: 'read',
      mbean: queueMbean(broker, rejected),
      attribute: 'MessageCount',
    });
    expect(left).toEqual(expect.objectContaining({ value: 6 }));
  }, 120_000);

  it("sends a dead-letter queue's messages back from the console, after the broker counts them", async () => {
    const work = `e2e.work.${randomUUID().slice(0, 8)}`;
    const dlq = await deadLetter(broker, work, 3);

    await page.goto(`${base}/clusters/${clusterId}/queues/${dlq}`);
    await waitForDepth(broker.nodes[0].name, '3');
    await page.getByRole('button', { name: 'Retry…' }).click();
    const dialog = page.getByTestId('queue-action-confirmation');
    await dialog
      .getByText(
        `Send up to 3 messages from ${dlq} back to the queues they came from, on node ${broker.nodes[0].name}?`,
      )
      .waitFor();
    await screenshot(page, '15-dlq-retry-confirmation');
    await dialog.getByRole('button', { name: 'Retry 3 messages' }).click();
    await page.getByText(`${dlq} retried`).waitFor({ timeout: 30_000 });
    await waitForDepth(broker.nodes[0].name, '0');
  }, 90_000);

  it('redrives a dead-letter group from the console: the broker counts first, the job shows what it did', async () => {
    const work = `e2e.orders.${randomUUID().slice(0, 8)}`;
    redriveDlq = `${work}.DLQ`;
    const payments = `e2e.payments.${randomUUID().slice(0, 8)}`;
    // Two origins: the first 200 the broker groups hold 3 of payments' and 197 of orders'.
    await deadLetter(broker, payments, 3, redriveDlq);
    await deadLetter(broker, work, 250, redriveDlq);

    await page.goto(`${base}/clusters/${clusterId}/queues/${redriveDlq}`);
    const groups = page.getByRole('table', { name: 'Messages by origin' });
    // More than the broker groups (its browse limit, 200): a lower bound, said to be one.
    await groups.getByText('at least 197 messages').waitFor({ timeout: 30_000 });
    await page
      .getByTestId('dead-letter-scope')
      .getByText(/first 200 of 253 messages/)
      .waitFor();
    await screenshot(page, '17-dlq-groups');

    await groups
      .getByRole('row', { name: new RegExp(work) })
      .getByRole('button', { name: 'Retry group…' })
      .click();
    const dialog = page.getByTestId('message-job-confirmation');
    await dialog
      .getByText(
        `Retry at least 197 messages from ${redriveDlq} back to ${work}, on node ${broker.nodes[0].name}?`,
      )
      .waitFor({ timeout: 30_000 });
    const confirm = dialog.getByRole('button', { name: 'Retry at least 197 messages' });
    // A count the broker could not finish asks for the queue's name.
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(/Type the queue's name/).fill(redriveDlq);
    await screenshot(page, '17-dlq-redrive-confirmation');
    await confirm.click();

    const job = page.getByTestId('message-job').first();
    await waitFor('the redrive to end', async () => (await job.getAttribute('data-status')) === 'done', {
      timeoutMs: 60_000,
    });
    await job.getByText(`retried 250 to ${work}`, { exact: false }).waitFor();
    // Only payments' three are left, all of them counted now.
    await waitForDepth(broker.nodes[0].name, '3');
    await groups.getByText('3 messages').waitFor();
    await screenshot(page, '17-dlq-redriven');
    expect(
      await brokerJolokia(broker, {
        type: 'read',
        mbean: queueMbean(broker, work),
        attribute: 'MessageCount',
      }),
    ).toEqual(expect.objectContaining({ value: 250 }));

    // Payments' three through a quarantine first, then released to payments from this page.
    await groups
      .getByRole('row', { name: new RegExp(payments) })
      .getByRole('button', { name: 'Retry group…' })
      .click();
    await dialog.getByLabel('Into a quarantine queue first, so it can be undone').check();
    await dialog.getByRole('button', { name: 'Retry 3 messages' }).click();
    const release = page.getByRole('button', { name: `Release to ${payments}…` });
    await release.waitFor({ timeout: 60_000 });
    await release.click();
    await dialog
      .getByText(`Move 3 messages from ${payments}.quarantine to ${payments}`, { exact: false })
      .waitFor({ timeout: 30_000 });
    // Released at two a second, and only once payments has a consumer: the job waits, saying so.
    await dialog.getByLabel('At most (messages a second)').fill('2');
    await dialog.getByLabel(`Wait for a consumer on ${payments}`).check();
    await dialog.getByLabel('Pause if they come back').check();
    await screenshot(page, '17-quarantine-release');
    await dialog.getByRole('button', { name: 'Move 3 messages' }).click();
    await page.goto(`${base}/clusters/${clusterId}/queues/${payments}.quarantine`);
    const released = page.getByTestId('message-job').first();
    await released.getByText('at most 2 a second').waitFor({ timeout: 30_000 });
    await released
      .getByTestId('message-job-waiting')
      .getByText(`Waiting: no consumer on ${payments} on ${broker.nodes[0].name}`)
      .waitFor({ timeout: 30_000 });
    await released.scrollIntoViewIfNeeded();
    await screenshot(page, '17-quarantine-release-waiting');
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    let received = 0;
    try {
      await client.createReceiver({
        source: { address: payments, capabilities: ['queue'] },
        onMessage: () => void received++,
        onError: () => undefined,
      });
      await waitFor(
        'the release to end',
        async () => (await released.getAttribute('data-status')) === 'done',
        {
          timeoutMs: 60_000,
        },
      );
      await waitFor('the consumer to have the three', () => received === 3, { timeoutMs: 15_000 });
      // Its consumer took them: nothing came back, and the guard let the job finish.
      await released.getByText('moved 3 of 3 messages', { exact: false }).waitFor();
      await released.getByText('; 0 came back since', { exact: false }).waitFor();
    } finally {
      await client.close();
    }
  }, 180_000);

  it('pauses a redrive its consumer still rejects, and resumes it from the console once the consumer is fixed', async () => {
    const work = `e2e.bounce.${randomUUID().slice(0, 8)}`;
    const dlq = await deadLetter(broker, work, 60);
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    let rejected = 0;
    let accepted = 0;
    try {
      // The consumer is still broken: with one delivery allowed, each message goes straight back.
      const broken = await client.createReceiver({
        source: { address: work, capabilities: ['queue'] },
        autoaccept: false,
        onMessage: (context) => {
          context.delivery!.reject();
          rejected++;
        },
        onError: () => undefined,
      });
      await page.goto(`${base}/clusters/${clusterId}/queues/${dlq}`);
      await page
        .getByRole('table', { name: 'Messages by origin' })
        .getByRole('row', { name: new RegExp(work) })
        .getByRole('button', { name: 'Retry group…' })
        .click({ timeout: 30_000 });
      const dialog = page.getByTestId('message-job-confirmation');
      // Twenty a second: batches of ten, so the guard looks after each of them.
      await dialog.getByLabel('At most (messages a second)').fill('20');
      await dialog.getByLabel('Pause if they come back').check();
      await dialog.getByRole('button', { name: 'Retry 60 messages' }).click({ timeout: 30_000 });

      const job = page.getByTestId('message-job').first();
      await waitFor(
        'the redrive to pause itself',
        async () => (await job.getAttribute('data-status')) === 'paused',
        {
          timeoutMs: 60_000,
        },
      );
      await job.getByText(/paused itself on bounce-back: \d+ of the \d+ messages sent/).waitFor();
      await job.getByText('resume it once the consumer is fixed', { exact: false }).waitFor();
      // It stopped after its first batches, not after the sixty: all it sent came back.
      expect(rejected).toBeGreaterThanOrEqual(10);
      expect(rejected).toBeLessThan(60);
      await job.scrollIntoViewIfNeeded();
      await screenshot(page, '17-redrive-paused');

      // The consumer is fixed: Resume redrives what is left, what came back among it.
      await broken.close();
      await client.createReceiver({
        source: { address: work, capabilities: ['queue'] },
        onMessage: () => void accepted++,
        onError: () => undefined,
      });
      await job.getByRole('button', { name: 'Resume' }).click();
      await waitFor(
        'the resumed redrive to end',
        async () => (await job.getAttribute('data-status')) === 'done',
        {
          timeoutMs: 60_000,
        },
      );
      await job.getByText('resumed once', { exact: false }).waitFor();
      // Every send counted, the first run's returns as they were, and nothing came back since.
      await job
        .getByText(
          `retried ${60 + rejected} of ${60 + rejected} messages to ${work}; ${rejected} came back since`,
        )
        .waitFor();
      await waitFor('the fixed consumer to have all sixty', () => accepted === 60, { timeoutMs: 15_000 });
      await waitForDepth(broker.nodes[0].name, '0');
      await screenshot(page, '17-redrive-resumed');
    } finally {
      await client.close();
    }
  }, 180_000);

  it('fires an alert the operator set up: in the header, on its page with the threshold and the events, then resolved', async () => {
    const queue = `e2e.alert.${randomUUID().slice(0, 8)}`;
    await page.goto(`${base}/clusters/${clusterId}/alerting`);
    // Suggested rules are offered, and watch nothing until saved.
    await page.getByRole('button', { name: 'Save suggested rule Backup not in sync' }).click();
    await page
      .getByRole('table', { name: 'Alert rules' })
      .getByRole('cell', { name: 'Backup not in sync', exact: true })
      .waitFor({ timeout: 30_000 });
    await page
      .getByRole('button', { name: 'Save suggested rule Backup not in sync' })
      .waitFor({ state: 'detached' });
    await screenshot(page, '19-alert-rules-suggested');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const form = page.getByRole('form', { name: 'New alert rule' });
    await form.getByRole('textbox', { name: 'Name' }).fill('orders backlog');
    await form.getByRole('textbox', { name: 'Threshold (messages)' }).fill('3');
    await form.getByRole('textbox', { name: 'Queues' }).fill(queue);
    await form.getByRole('textbox', { name: 'For (seconds)' }).fill('0');
    // A team label, sent with every notification of its alerts (Alertmanager routes by it).
    await form.getByRole('textbox', { name: 'Labels' }).fill('team=payments');
    // Tested before it is saved: against the owner's last figures, once a tick has seen the queue.
    await fillQueue(broker, queue, 5);
    const holding = form.getByText(/holds now on 1\b/);
    await waitFor(
      'the test to see the queue hold',
      async () => {
        await form.getByRole('button', { name: 'Test against current figures' }).click();
        await holding.waitFor({ timeout: 2_000 }).catch(() => undefined);
        return holding.isVisible();
      },
      { timeoutMs: 30_000 },
    );
    await form.getByRole('table', { name: 'Rule test readings' }).getByText('holds now').waitFor();
    await screenshot(page, '19-alert-rule-form');
    await form.getByRole('button', { name: 'Add rule' }).click();
    await page
      .getByRole('table', { name: 'Alert rules' })
      .getByText('orders backlog')
      .waitFor({ timeout: 30_000 });
    const saved = (await (await admin.fetch(`${base}/api/v1/clusters/${clusterId}/alert-rules`)).json()) as {
      items: { name: string; labels: Record<string, string> }[];
    };
    expect(saved.items.find((r) => r.name === 'orders backlog')?.labels).toEqual({ team: 'payments' });

    const badge = page.getByTestId('alerts-badge');
    await waitFor('the header to count the alert', async () => /firing/i.test(await badge.innerText()), {
      timeoutMs: 30_000,
    });
    const alerts = page.getByRole('table', { name: 'Alerts' });
    await alerts.getByRole('cell', { name: queue, exact: true }).waitFor({ timeout: 30_000 });
    await screenshot(page, '19-alert-firing');

    // The Alerts page filtered to this cluster, its rule and what no silence covers: the filters
    // are in its link, so a reload (or the link shared in a chat) shows the same alerts.
    await page.goto(`${base}/alerts?cluster=${clusterId}&silenced=false`);
    await alerts.getByRole('cell', { name: queue, exact: true }).waitFor({ timeout: 30_000 });
    await page.getByPlaceholder('Every rule').click();
    await page.getByRole('option', { name: 'orders backlog' }).click();
    await page.waitForURL(/rule=/);
    await page.reload();
    await alerts.getByRole('cell', { name: queue, exact: true }).waitFor({ timeout: 30_000 });
    expect(await page.getByPlaceholder('Every rule').inputValue()).toBe('orders backlog');
    await screenshot(page, '19-alerts-filtered');
    await page.goto(`${base}/alerts?cluster=${clusterId}&silenced=true`);
    await page.getByText('No alerts here.').waitFor({ timeout: 30_000 });
    await page.goto(`${base}/alerts?cluster=${clusterId}`);

    await alerts.getByRole('link', { name: 'orders backlog' }).click();
    const chart = page.getByTestId('alert-chart');
    await chart.getByText('threshold 3').waitFor({ timeout: 30_000 });
    await chart.getByText(/alert fired/).waitFor({ timeout: 30_000 });
    await page
      .getByRole('table', { name: 'Delivery log' })
      .getByText('NATS (studio.v1.alerts)')
      .first()
      .waitFor();
    await screenshot(page, '19-alert-page');

    // Purged by an operator (the admin here): the purge is on the alert's timeline, by whom and how many.
    const purged = await admin.fetch(
      `${base}/api/v1/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/purge`,
      { method: 'POST', headers: { 'Idempotency-Key': randomUUID() } },
    );
    expect(purged.status).toBe(200);
    await page.getByText('Resolved', { exact: true }).first().waitFor({ timeout: 30_000 });
    await chart.getByText(/alert resolved/).waitFor({ timeout: 30_000 });
    await chart.getByText('queue.purge by admin (messages 5)').waitFor({ timeout: 30_000 });
    await screenshot(page, '19-alert-resolved');

    // The incident around it, for the postmortem: the alert firing, the purge and the resolution in
    // that order, its queue charted, and the same in the Markdown export with the chart as an image.
    await page.getByTestId('open-incident').click();
    const moments = page.getByTestId('incident-moment');
    await moments
      .filter({ hasText: /resolved/ })
      .first()
      .waitFor({ timeout: 30_000 });
    const texts = await moments.allInnerTexts();
    const fired = texts.findIndex((t) => /orders backlog \(\w+\) fired/.test(t));
    const purge = texts.findIndex((t) => t.includes(`queue.purge of ${queue} by admin (messages 5)`));
    const resolved = texts.findIndex((t) => /orders backlog \(\w+\) resolved/.test(t));
    expect(fired).toBeGreaterThanOrEqual(0);
    expect([fired < purge, purge < resolved]).toEqual([true, true]);
    await page.getByTestId('incident-chart').locator('canvas').first().waitFor({ timeout: 30_000 });
    await screenshot(page, '21-incident');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export Markdown' }).click(),
    ]);
    const markdown = readFileSync((await download.path())!, 'utf8');
    // This queue's rows: the cluster's other actions in the hour (earlier tests') are on it too.
    const rows = markdown.split('\n').filter((l) => /^\| \d{4}-/.test(l) && l.includes(queue));
    const at = (pattern: RegExp) => rows.findIndex((l) => pattern.test(l));
    expect(at(/fired/)).toBeGreaterThanOrEqual(0);
    expect(at(/fired/)).toBeLessThan(at(/queue\.purge/));
    expect(at(/queue\.purge/)).toBeLessThan(at(/resolved/));
    expect(markdown).toContain(`![Depth of queue ${queue}](data:image/png;base64,`);
  }, 150_000);

  it('tests a receiver from the Alerting screen: the webhook hears it, and the delivery log says how it went', async () => {
    const heard: string[] = [];
    const hooks = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => (heard.push(body), res.writeHead(204).end()));
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    try {
      const port = (hooks.address() as AddressInfo).port;
      // A port just let go of: nothing listens there.
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const nobody = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      for (const [name, url] of [
        ['on-call hook', `http://127.0.0.1:${port}/studio`],
        ['hook nobody runs', `http://127.0.0.1:${nobody}/studio`],
      ])
        expect(
          (
            await admin.fetch(`${base}/api/v1/clusters/${clusterId}/alert-receivers`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json' },
              body: JSON.stringify({
                name,
                kind: 'webhook',
                url,
                secret: 'e2e-signing-secret',
                minSeverity: 'info',
              }),
            })
          ).status,
        ).toBe(201);
      await page.goto(`${base}/clusters/${clusterId}/alerting`);
      await page.getByRole('button', { name: 'Send receiver on-call hook a test notification' }).click();
      const log = page.getByRole('table', { name: 'Delivery log' });
      const delivered = log.getByRole('row').filter({ hasText: 'on-call hook' }).filter({ hasText: 'test' });
      await delivered.getByText('delivered', { exact: true }).waitFor({ timeout: 30_000 });
      expect(JSON.parse(heard[0]) as { transition: string }).toMatchObject({ transition: 'test' });
      await page.getByRole('button', { name: 'Send receiver hook nobody runs a test notification' }).click();
      const failed = log.getByRole('row').filter({ hasText: 'hook nobody runs' });
      await failed.getByText('failed', { exact: true }).waitFor({ timeout: 30_000 });
      await failed.getByText(/ECONNREFUSED/).waitFor();
      // The notices in the corner, closed: they must not hide why one failed.
      const notices = page.locator('.mantine-Notification-root');
      for (const close of await notices.getByRole('button').all()) await close.click({ force: true });
      await waitFor('the notices to close', async () => (await notices.count()) === 0, { timeoutMs: 10_000 });
      await log.evaluate((table) => table.scrollIntoView({ block: 'end' }));
      await screenshot(page, '19-receiver-test');

      // A team's own receiver: only the alerts of rules labelled team=payments go there.
      const card = page.getByTestId('receivers');
      const only = card.getByRole('textbox', { name: 'Only alerts labelled' });
      await card.getByRole('textbox', { name: 'Name' }).fill('payments hook');
      await card.getByRole('textbox', { name: 'Alertmanager URL' }).fill(`http://127.0.0.1:${nobody}`);
      await only.fill('team payments');
      await card.getByText(/a label is name=value/).waitFor();
      expect(await card.getByRole('button', { name: 'Add receiver' }).isDisabled()).toBe(true);
      await only.fill('team=payments');
      await card.getByRole('button', { name: 'Add receiver' }).click();
      await card
        .getByRole('table', { name: 'Receivers' })
        .getByRole('row')
        .filter({ hasText: 'payments hook' })
        .getByText('from warning, labelled team=payments')
        .waitFor({ timeout: 30_000 });
      const listed = (await (
        await admin.fetch(`${base}/api/v1/clusters/${clusterId}/alert-receivers`)
      ).json()) as { items: { name: string; matchers: Record<string, string> }[] };
      expect(listed.items.find((r) => r.name === 'payments hook')?.matchers).toEqual({ team: 'payments' });
    } finally {
      // Later alerts of this cluster would go on trying both: removed with what they were owed.
      const receivers = (await (
        await admin.fetch(`${base}/api/v1/clusters/${clusterId}/alert-receivers`)
      ).json()) as { items: { id: string; name: string }[] };
      for (const r of receivers.items.filter((r) => r.name.includes('hook')))
        await admin.fetch(`${base}/api/v1/clusters/${clusterId}/alert-receivers/${r.id}`, {
          method: 'DELETE',
        });
      await new Promise((resolve) => hooks.close(resolve));
    }
  }, 90_000);

  it("shades a queue's usual depth for the hour behind its chart, and says why a young queue has none", async () => {
    const id = randomUUID().slice(0, 8);
    const [usual, young] = ['usual', 'young'].map((k) => `e2e.${k}.${id}`);
    for (const queue of [usual, young]) await fillQueue(broker, queue, 5);
    // Their past weeks as the history keeper sums them up: two weeks busy at this hour, and three days.
    const busyHour = new Date().getUTCHours();
    await writeQueueHours(clusterId, usual, { days: 15, busyHour, peak: 40 });
    await writeQueueHours(clusterId, young, { days: 3, busyHour, peak: 40 });
    await page.goto(`${base}/clusters/${clusterId}/queues/${usual}`);
    await page
      .getByTestId('band-note')
      .getByText(/^Shaded: the usual depth/)
      .waitFor({ timeout: 30_000 });
    await waitFor(
      'the depth chart to draw the 5 messages',
      async () => (await page.getByTestId('depth-chart').getAttribute('data-last-depth')) === '5',
      { timeoutMs: 30_000 },
    );
    await screenshot(page, '20-queue-usual-band');
    await page.goto(`${base}/clusters/${clusterId}/queues/${young}`);
    await page
      .getByTestId('band-note')
      .getByText('No usual band: 3 days of history, 0 of the last 4 weeks seen at this hour: a band needs 2.')
      .waitFor({ timeout: 30_000 });

    // A baseline rule's test: 5 messages are not 5× a usual 40; the young queue is unknown, and says why.
    await page.goto(`${base}/clusters/${clusterId}/alerting`);
    await page.getByRole('button', { name: 'Add rule' }).click();
    const form = page.getByRole('form', { name: 'New alert rule' });
    await form.getByRole('textbox', { name: 'Name' }).fill('unusual depth');
    await form.getByLabel('When').click();
    await page.getByRole('option', { name: 'Queue: depth above its usual band for the hour, times' }).click();
    await form.getByRole('textbox', { name: 'Threshold (times its usual top)' }).fill('5');
    await form.getByRole('textbox', { name: 'Queues' }).fill(`e2e.*.${id}`);
    await form.getByRole('button', { name: 'Test against current figures' }).click();
    const readings = form.getByRole('table', { name: 'Rule test readings' });
    await readings
      .getByRole('row')
      .filter({ hasText: young })
      .getByText(/3 days of history/)
      .waitFor({ timeout: 30_000 });
    await readings.getByRole('row').filter({ hasText: usual }).getByText('does not hold').waitFor();
    await readings.scrollIntoViewIfNeeded();
    await screenshot(page, '20-baseline-rule-test');
    await form.getByRole('button', { name: 'Cancel' }).click();
    for (const queue of [usual, young]) await drainQueue(broker, queue);
  }, 90_000);

  it('shows a viewer everything but offers no change, and says why', async () => {
    const username = `viewer-${randomUUID().slice(0, 6)}`;
    const password = `${username}-password`;
    const created = await admin.fetch(`${base}/api/v1/users`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ kind: 'local', username, password, role: 'viewer', clusters: '*' }),
    });
    expect(created.status).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const viewer = await context.newPage();
    try {
      await viewer.goto(`${base}/clusters`);
      const form = viewer.getByRole('form', { name: 'Sign in' });
      await form.getByLabel('Username').fill(username);
      await form.locator('input[type=password]').fill(password);
      await form.getByRole('button', { name: 'Sign in' }).click();
      await viewer.getByRole('button', { name: `Signed in as ${username} (viewer)` }).waitFor();
      await viewer.getByRole('link', { name: CLUSTER_NAME }).waitFor();
      const register = viewer.getByRole('button', { name: 'Register a cluster' });
      expect(await register.isDisabled()).toBe(true);
      expect(await register.getAttribute('data-refusal')).toMatch(/admin role/);
      expect(await viewer.getByRole('button', { name: 'Remove' }).isDisabled()).toBe(true);
      await screenshot(viewer, '13-viewer-read-only');

      await viewer.goto(`${base}/clusters/${clusterId}/settings`);
      await viewer.getByText('Read-only', { exact: true }).waitFor();
      expect(await viewer.getByRole('switch', { name: 'Read-only mode' }).isDisabled()).toBe(true);
      expect(await viewer.getByRole('button', { name: 'Remove cluster' }).isDisabled()).toBe(true);
      expect(await viewer.getByRole('button', { name: 'Save changes' }).count()).toBe(0);

      // A queue: every action shown, none offered, and why.
      await viewer.goto(`${base}/clusters/${clusterId}/queues/${actionQueue}`);
      const purge = viewer.getByRole('button', { name: 'Purge…' });
      await purge.waitFor();
      expect(await purge.isDisabled()).toBe(true);
      expect(await purge.getAttribute('data-refusal')).toMatch(/operator role/);
      expect(await viewer.getByRole('button', { name: 'Pause queue…' }).isDisabled()).toBe(true);
      await viewer.getByText(/Reading messages needs the operator role/).waitFor();
      expect(await viewer.getByRole('table', { name: 'Messages' }).count()).toBe(0);
      await screenshot(viewer, '16-viewer-queue-actions-refused');

      // The redriven DLQ: its jobs are shown, and nothing can be started or released.
      await viewer.goto(`${base}/clusters/${clusterId}/queues/${redriveDlq}`);
      await viewer.getByTestId('message-job').first().waitFor();
      const release = viewer.getByRole('button', { name: /^Release to / });
      await release.waitFor();
      expect(await release.isDisabled()).toBe(true);
      expect(await release.getAttribute('data-refusal')).toMatch(/operator role/);
      await screenshot(viewer, '17-viewer-dlq-refused');

      await viewer.goto(`${base}/settings`);
      await viewer.getByText('artemis-studio.stream.heartbeat-millis').waitFor();
      const saves = viewer.getByRole('button', { name: 'Save' });
      expect(await saves.count()).toBeGreaterThan(3);
      for (const save of await saves.all()) expect(await save.isDisabled()).toBe(true);

      // No admin area: a viewer's page of access is their own tokens.
      await viewer.goto(`${base}/access`);
      await viewer.getByRole('heading', { name: 'My API tokens' }).waitFor();
      expect(await viewer.getByRole('tab', { name: 'Users' }).count()).toBe(0);

      await viewer.getByTestId('user-menu').click();
      await viewer.getByRole('menuitem', { name: 'Sign out' }).click();
      await viewer.getByRole('form', { name: 'Sign in' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('lets the admin manage access and read who changed what in the audit trail', async () => {
    await page.goto(`${base}/access`);
    await page.getByRole('tab', { name: 'Users' }).waitFor();
    await page.getByRole('table', { name: 'Users' }).getByText('admin', { exact: true }).waitFor();
    // Access at a glance: each user's grants beside them.
    await page.getByTestId('roles-admin').getByText('admin on *').waitFor();
    await page.getByRole('tab', { name: 'API tokens' }).click();
    const token = page.getByRole('form', { name: 'New API token' });
    await token.getByLabel('Name').fill('e2e-ci');
    await token.getByRole('button', { name: 'Create' }).click();
    const secret = await page.getByTestId('new-token-secret').innerText();
    expect(secret).toMatch(/^sst_/);
    await page.getByRole('button', { name: 'Done' }).click();
    // The token works, and acts as a viewer (its role), whoever made it.
    expect(
      (
        await fetch(`${base}/api/v1/clusters/${clusterId}`, {
          headers: { Authorization: `Bearer ${secret}` },
        })
      ).status,
    ).toBe(200);

    await page.getByRole('tab', { name: 'Audit trail' }).click();
    const trail = page.getByRole('table', { name: 'Audit trail' });
    await trail.getByText('token.create').first().waitFor();
    await screenshot(page, '14-access-audit-trail');
    // The cluster's registration is far back by now (fifty rows a page): found by its action.
    await page.getByLabel('Action').fill('cluster.create');
    await trail.getByText('cluster.create').first().waitFor();
    expect(await trail.getByText('token.create').count()).toBe(0);

    // The HTTP API as the gateway describes it (its OpenAPI document), for whoever writes a script.
    await page.goto(`${base}/http-api`);
    await page
      .getByRole('table', { name: 'API: clusters' })
      .getByText('/api/v1/clusters/{id}')
      .first()
      .waitFor();
    await page.getByText('Needs: admin on every cluster. Audited as `setting.update`.').waitFor();
  });

  it('leaves a removed cluster with a notice instead of reading Live forever', async () => {
    await page.goto(`${base}/clusters/${clusterId}`);
    await waitForState('live');
    expect((await admin.fetch(`${base}/api/v1/clusters/${clusterId}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await page.getByText('Cluster removed').waitFor({ timeout: 10_000 });
    await page.waitForURL(`${base}/clusters`);
    await screenshot(page, '12-cluster-removed');
  });

  it('shows a two-node cluster as one: each queue across its nodes, the cluster connection, and the messages stranded on the wrong node', async () => {
    // The `cluster` profile: two live nodes, max-hops 1, redistribution off but on `redistributed.#`.
    const cluster = await startBroker('cluster');
    const onNode = (i: number): BrokerProfile => ({ ...cluster, nodes: [cluster.nodes[i]] });
    const closers: (() => Promise<unknown>)[] = [];
    try {
      const registered = await admin.fetch(`${base}/api/v1/clusters`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          name: `${CLUSTER_NAME}-symmetric`,
          nodes: cluster.nodes.map((n) => ({ name: n.name, jolokiaUrl: n.jolokiaUrl, amqpUrl: n.amqpUrl })),
          credentials: { jolokia: { username: cluster.user, password: cluster.password } },
        }),
      });
      expect(registered.status).toBe(201);
      const { id } = (await registered.json()) as { id: string };
      clusterIds.push(id);
      // held.orders on both nodes, ten messages on node 2, its one consumer (no credit) on node 1.
      for (const i of [0, 1])
        await brokerExec(onNode(i), 'createQueue(java.lang.String,boolean)', [
          JSON.stringify({ name: 'held.orders', address: 'held.orders', 'routing-type': 'ANYCAST' }),
          true,
        ]);
      await fillQueue(onNode(1), 'held.orders', 10);
      const client = await openAmqpClient(cluster.nodes[0].amqpUrl, cluster.user, cluster.password);
      closers.push(() => client.close());
      await client.createReceiver({
        source: { address: 'held.orders', capabilities: ['queue'] },
        credit_window: 0,
      });

      // A page of its own, signed in as the admin: this scenario needs none of the ones before.
      const page = await signedInPage(browser, base, admin);
      await page.goto(`${base}/clusters/${id}/queues?search=held.orders`);
      const table = page.getByRole('table', { name: 'Queues', exact: true });
      await table
        .getByText('stranded on node2')
        .waitFor({ timeout: 30_000 })
        .catch(async (error: Error) => {
          // What the page showed and what the API answers, so a failure explains itself.
          const shown = await page
            .getByRole('main')
            .innerText()
            .catch(() => '(unreadable)');
          const answered = await admin
            .fetch(`${base}/api/v1/clusters/${id}/queues/across-nodes?search=held.orders`)
            .then((r) => r.text());
          const topology = await admin.fetch(`${base}/api/v1/clusters/${id}/topology`).then((r) => r.text());
          throw new Error(
            `${error.message}\n--- the page showed:\n${shown.slice(0, 1500)}\n--- across-nodes:\n${answered.slice(0, 1500)}\n--- topology:\n${topology.slice(0, 1500)}`,
          );
        });
      // Once for the cluster: 10 in all, node 1 holding none with its consumer, node 2 all ten.
      await table.getByText('node1 0/1 · node2 10/0').waitFor();
      await screenshot(page, '20-queues-across-nodes');

      await page.goto(`${base}/clusters/${id}`);
      const connections = page.getByRole('table', { name: 'Cluster connections' });
      await connections.getByText('my-cluster').first().waitFor({ timeout: 30_000 });
      const stranded = page.getByRole('table', { name: 'Stranded messages' });
      await stranded.getByRole('cell', { name: 'held.orders', exact: true }).waitFor();
      await stranded.getByText('redistribution is off for the address (redistribution-delay -1)').waitFor();
      await page.getByText('<redistribution-delay>0</redistribution-delay>', { exact: false }).waitFor();
      // Beside the health, which reads only the nodes: what is stranded, in one figure.
      expect(await page.getByTestId('stranded-count').textContent()).toBe('1 queue stranded, 10 messages');
      await connections.scrollIntoViewIfNeeded();
      await screenshot(page, '20-cluster-connections');
      await stranded.scrollIntoViewIfNeeded();
      await screenshot(page, '20-cluster-stranded');

      // The fix, from the queue's page: the broker counts them on node 2, then a job moves them
      // through the cluster connection to node 1, where the consumer is.
      await stranded.getByRole('link', { name: 'held.orders' }).click();
      const notice = page.getByTestId('stranded-on-node2');
      await notice.waitFor({ timeout: 30_000 });
      await notice.getByRole('button', { name: 'Move them to node1…' }).click();
      const confirmation = page.getByTestId('message-job-confirmation');
      await confirmation
        .getByText('Move 10 messages of held.orders from node2 to node1?')
        .waitFor({ timeout: 30_000 });
      await screenshot(page, '20-stranded-move');
      await confirmation.getByRole('button', { name: 'Move 10 messages' }).click();
      await page.getByText('moved 10 of 10 messages to node1').waitFor({ timeout: 30_000 });
      // The broker's own depths as the page reads them: all ten on node 1, none left on node 2.
      await waitFor(
        'node 1 holding the ten and node 2 none',
        async () =>
          (await page.getByTestId('depth-node1').textContent()) === '10' &&
          (await page.getByTestId('depth-node2').textContent()) === '0',
        { timeoutMs: 30_000 },
      );
      await notice.waitFor({ state: 'detached', timeout: 30_000 });
      await screenshot(page, '20-stranded-moved');

      // Each link's backlog is a queue of the broker's own: charted on its page like any other.
      await page.goto(`${base}/clusters/${id}`);
      await connections.getByRole('link', { name: 'link backlog' }).first().click();
      await page.getByRole('heading', { name: /^\$\.artemis\.internal\.sf\.my-cluster\./ }).waitFor();
      await page.getByRole('table', { name: 'Queue on each node' }).waitFor({ timeout: 30_000 });

      // A core bridge from node 1 to an address with no binding on node 2 yet: the broker calls it
      // started while it retries; the console says retrying, then forwarding once the queue exists.
      const connectors = (await brokerJolokia(onNode(0), {
        type: 'read',
        mbean: `org.apache.activemq.artemis:broker="${cluster.nodes[0].name}"`,
        attribute: 'ConnectorsAsJSON',
      })) as { value: string };
      const towards = (JSON.parse(connectors.value) as { name: string }[]).find((c) => c.name !== 'artemis')!;
      await brokerExec(onNode(0), 'createQueue(java.lang.String,boolean)', [
        JSON.stringify({ name: 'orders.out', address: 'orders.out', 'routing-type': 'ANYCAST' }),
        true,
      ]);
      await brokerExec(onNode(0), 'createBridge(java.lang.String)', [
        JSON.stringify({
          name: 'orders-to-node2',
          'queue-name': 'orders.out',
          'forwarding-address': 'orders.in',
          'static-connectors': [towards.name],
          user: cluster.user,
          password: cluster.password,
          'reconnect-attempts': -1,
          'retry-interval': 500,
        }),
      ]);
      await page.goto(`${base}/clusters/${id}`);
      const bridges = page.getByRole('table', { name: 'Core bridges' });
      await bridges.getByText('retrying').waitFor({ timeout: 30_000 });
      await brokerExec(onNode(1), 'createQueue(java.lang.String,boolean)', [
        JSON.stringify({ name: 'orders.in', address: 'orders.in', 'routing-type': 'ANYCAST' }),
        true,
      ]);
      await bridges.getByText('forwarding').waitFor({ timeout: 30_000 });
      // And the profile's AMQP broker connection from node 1 to node 2, connected, listed on node 2
      // as attached; its federation pulls node 2's `fed.orders` to a consumer on node 1.
      const amqpLinks = page.getByRole('table', { name: 'Broker connections' });
      await amqpLinks.getByText('connected').waitFor();
      await amqpLinks.getByText(/^\s*from /).waitFor({ timeout: 30_000 });
      await fillQueue(onNode(1), 'fed.orders', 3);
      expect(await drainQueue(onNode(0), 'fed.orders')).toHaveLength(3);
      await amqpLinks.getByText('3 received · 0 sent').waitFor({ timeout: 30_000 });
      await bridges.scrollIntoViewIfNeeded();
      await screenshot(page, '20-core-bridges');
      await page.close();
    } finally {
      for (const close of closers) await close().catch(() => undefined);
      // Two more JVMs are not left running beside what follows.
      await artemis('reset', 'cluster');
    }
  }, 240_000);
});
