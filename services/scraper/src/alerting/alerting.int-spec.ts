import {
  channels,
  CreateAlertRuleRequestSchema,
  ownerRpcs,
  subjectPatterns,
  type AlertTransition,
} from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import { SettingsRepository } from '@artemis-studio/platform';
import {
  brokerCluster,
  brokerExec,
  brokerJolokia,
  brokerProfile,
  drainQueue,
  fillQueue,
  insertCluster,
  insertReceiver,
  openAmqpClient,
  startAlertmanager,
  startService,
  startSmtpServer,
  testBus,
  testConfig,
  testDatabaseUrl,
  waitFor,
  type BrokerProfile,
  type RunningService,
  type TestAlertmanager,
  type TestSmtpServer,
} from '@artemis-studio/testing';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { ScraperModule } from '../app.module';
import { AlertHistoryReaperService } from './alert-history-reaper.service';

const TICK_MS = 1000;
const SECRET = 'a-webhook-secret-of-some-length';
/** How old a signed delivery may be before the receiver refuses it as a replay. */
const REPLAY_WINDOW_S = 300;

interface Received {
  transition: string;
  alert: { state: string; subject: string; ruleName: string };
  deliveryId: string;
}

/**
 * An on-call tool's webhook endpoint as our docs tell people to write it: checks the signature
 * over `{timestamp}.{body}`, refuses a stale timestamp and a delivery id it has seen, and can be
 * told to fail the next requests (a receiver that is down).
 */
async function startWebhookReceiver() {
  const received: Received[] = [];
  const refused: string[] = [];
  const seen = new Set<string>();
  let failNext = 0;
  let lastRequest: { headers: Record<string, string>; body: string } | null = null;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const headers = req.headers as Record<string, string>;
      lastRequest = { headers, body };
      const refuse = (why: string) => {
        refused.push(why);
        res.writeHead(401).end(why);
      };
      if (failNext > 0) {
        failNext--;
        res.writeHead(503).end('down for maintenance');
        return;
      }
      const timestamp = headers['x-studio-timestamp'] ?? '';
      const expected = `v1=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;
      const given = headers['x-studio-signature'] ?? '';
      if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
        return refuse('bad signature');
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > REPLAY_WINDOW_S) return refuse('stale');
      const delivery = headers['x-studio-delivery'] ?? '';
      if (seen.has(delivery)) return refuse('replayed');
      seen.add(delivery);
      received.push(JSON.parse(body) as Received);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    refused,
    failNext: (n: number) => (failNext = n),
    /** Sends the last request again, as someone who captured it would, optionally altered. */
    replayLast: async (alter: (body: string) => string = (b) => b) => {
      const last = lastRequest!;
      return (
        await fetch(url, {
          method: 'POST',
          headers: Object.fromEntries(
            ['content-type', 'x-studio-timestamp', 'x-studio-signature', 'x-studio-delivery'].map((h) => [
              h,
              last.headers[h],
            ]),
          ),
          body: alter(last.body),
        })
      ).status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('alerting against a real broker, PostgreSQL, NATS and Alertmanager', () => {
  let broker: BrokerProfile;
  let db: DataSource;
  let alertmanager: TestAlertmanager;
  let webhook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let smtp: TestSmtpServer;
  let scraperEnv: Record<string, string>;
  let scraper: RunningService;
  let cluster: { id: string; nodeIds: string[] };
  const bus = testBus('alerting-test');
  const transitions: AlertTransition[] = [];
  const queue = `alerting.${randomUUID()}`;
  const clusterName = `alerting-${randomUUID().slice(0, 8)}`;

  const alertRows = (ruleId: string) =>
    db.query(
      `SELECT id, subject, state, value, fired_at, ended_at, end_reason FROM alert WHERE rule_id = $1`,
      [ruleId],
    );
  const addRule = async (rule: Record<string, unknown>) =>
    (
      await db.query(
        `INSERT INTO alert_rule (cluster_id, name, kind, subjects, threshold, for_seconds, severity)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [
          cluster.id,
          rule.name,
          rule.kind,
          rule.subjects,
          rule.threshold ?? null,
          rule.forSeconds ?? 0,
          'critical',
        ],
      )
    )[0].id as string;

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    const settings = new SettingsRepository(db);
    await settings.put('artemis-studio.scrape.tier-a-millis', TICK_MS);
    await settings.put('artemis-studio.scrape.tier-b-millis', TICK_MS);
    alertmanager = await startAlertmanager();
    webhook = await startWebhookReceiver();
    bus.subscribe(channels.alert, subjectPatterns.alert(), (t) => void transitions.push(t));
    await bus.ready();
    // A second node nobody answers on: the node rule's subject.
    const fixture = brokerCluster(broker);
    cluster = await insertCluster(db, {
      ...fixture,
      name: clusterName,
      nodes: [...fixture.nodes, { name: 'gone', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
    });
    await insertReceiver(db, cluster.id, { name: 'am', kind: 'alertmanager', url: alertmanager.url });
    await insertReceiver(db, cluster.id, { name: 'hook', kind: 'webhook', url: webhook.url, secret: SECRET });
    await brokerExec(broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: queue, address: queue, 'routing-type': 'ANYCAST' }),
      true,
    ]);
    smtp = await startSmtpServer('studio-alerts', 'an-smtp-password');
    scraperEnv = { LEASE_TTL_MS: '3000', SCRAPER_SMTP_CA_FILE: smtp.caFile };
    scraper = await startService(ScraperModule, scraperEnv);
  }, 60_000);

  afterAll(async () => {
    await scraper?.close();
    await brokerExec(broker, 'destroyQueue(java.lang.String,boolean)', [queue, true]).catch(() => undefined);
    await db.query(`DELETE FROM cluster WHERE id = $1`, [cluster.id]);
    const settings = new SettingsRepository(db);
    await settings.reset('artemis-studio.scrape.tier-a-millis');
    await settings.reset('artemis-studio.scrape.tier-b-millis');
    await alertmanager?.stop();
    await webhook?.close();
    await smtp?.close();
    await db.destroy();
    await bus.close();
  });

  it('takes a depth rule pending, then firing after its "for", tells every receiver once, and resolves it when drained', async () => {
    const rule = await addRule({
      name: 'deep',
      kind: 'queue-depth',
      subjects: 'alerting.*',
      threshold: 5,
      forSeconds: 3,
    });
    await fillQueue(broker, queue, 10);

    const [pending] = await waitFor('the alert pending', async () => {
      const rows = await alertRows(rule);
      return rows.length === 1 && rows[0].state === 'pending' ? rows : undefined;
    });
    expect(pending).toMatchObject({ subject: queue, value: 10, fired_at: null });
    const [firing] = await waitFor('the alert firing', async () => {
      const rows = await alertRows(rule);
      return rows[0]?.state === 'firing' ? rows : undefined;
    });
    // Fired at the first tick after three seconds pending, not before.
    const startedAt = (await db.query(`SELECT started_at FROM alert WHERE id = $1`, [firing.id]))[0]
      .started_at as Date;
    const firedAfter = (firing.fired_at as Date).getTime() - startedAt.getTime();
    expect(firedAfter).toBeGreaterThanOrEqual(3_000);
    expect(firedAfter).toBeLessThan(3_000 + 3 * TICK_MS);

    // Alertmanager holds it with our labels; the webhook got one signed firing.
    const held = await waitFor('Alertmanager to hold the alert', async () =>
      (await alertmanager.alerts()).find((a) => a.labels.alertname === 'deep'),
    );
    expect(held.labels).toMatchObject({ queue, severity: 'critical', kind: 'queue-depth' });
    expect(held.status.state).toBe('active');
    await waitFor('the webhook to be told', () => webhook.received.length === 1);
    expect(webhook.received[0]).toMatchObject({
      transition: 'firing',
      alert: { state: 'firing', subject: queue },
    });
    // Captured and sent again, or altered: the receiver can tell.
    expect(await webhook.replayLast()).toBe(401);
    expect(await webhook.replayLast((body) => body.replace('"firing"', '"resolved"'))).toBe(401);
    expect(webhook.refused).toEqual(['replayed', 'bad signature']);

    await drainQueue(broker, queue);
    await waitFor('the alert resolved', async () => (await alertRows(rule))[0]?.state === 'resolved');
    await waitFor('the webhook told of the resolve', () => webhook.received.length === 2);
    expect(webhook.received.map((r) => r.transition)).toEqual(['firing', 'resolved']);
    expect((await alertRows(rule))[0]).toMatchObject({
      end_reason: 'the condition no longer holds',
      value: 0,
    });
    // Alertmanager is told it ended (endsAt now): it no longer counts it active.
    await waitFor('Alertmanager to end it', async () => {
      const alert = (await alertmanager.alerts()).find((a) => a.labels.alertname === 'deep');
      return !alert || alert.status.state !== 'active';
    });
    // Every transition was published on NATS for other tools.
    await waitFor('the transitions on NATS', () =>
      ['pending', 'firing', 'resolved'].every((s) =>
        transitions.some((t) => t.alert.ruleName === 'deep' && t.state === s),
      ),
    );
    await db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);
  });

  it("tests a rule against the owner's last figures, storing nothing and telling nobody", async () => {
    const test = (rule: Record<string, unknown>) =>
      bus.request(
        ownerRpcs.alertRuleTest,
        { clusterId: cluster.id, rule: CreateAlertRuleRequestSchema.parse({ name: 'draft', ...rule }) },
        { key: cluster.id, timeoutMs: 5_000 },
      );
    const rulesBefore = await db.query(`SELECT count(*)::int AS n FROM alert_rule WHERE cluster_id = $1`, [
      cluster.id,
    ]);
    await fillQueue(broker, queue, 4);
    const deep = await waitFor('the test to see the depth', async () => {
      const answer = await test({ kind: 'queue-depth', subjects: 'alerting.*', threshold: 2 });
      return answer.readings.find((r) => r.subject === queue)?.value === 4 ? answer : undefined;
    });
    expect(deep.readings[0]).toEqual({ subject: queue, holds: true, value: 4 });
    expect(deep.holding).toBe(1);
    // Every rule of the cluster is off: no tick kept the counters a rate needs, and the test says so.
    const rate = await test({ kind: 'queue-killed-rate', subjects: queue, threshold: 1 });
    expect(rate.readings).toEqual([{ subject: queue, holds: null, value: null }]);
    expect(rate.note).toMatch(/rates and forecasts/);
    const nodes = await test({ kind: 'node-unreachable', subjects: '*' });
    expect(nodes.readings.map((r) => [r.subject, r.holds])).toEqual([
      ['gone', true],
      [broker.nodes[0].name, false],
    ]);
    expect(
      await db.query(`SELECT count(*)::int AS n FROM alert_rule WHERE cluster_id = $1`, [cluster.id]),
    ).toEqual(rulesBefore);
    await drainQueue(broker, queue);
  });

  it("exports the owned cluster's figures for Prometheus, with the names the example rules use", async () => {
    /** The value of the series of `name` whose labels include all of `labels`, or undefined. */
    const series = (text: string, name: string, labels: Record<string, string>) => {
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
        );
      return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
    };
    const scrape = async () => (await fetch(`${scraper.url}/metrics`)).text();
    const ofQueue = { cluster: clusterName, queue };
    await fillQueue(broker, queue, 4);
    const metrics = await waitFor('the queue on /metrics', async () => {
      const text = await scrape();
      return series(text, 'studio_queue_messages', ofQueue) === 4 ? text : undefined;
    });
    expect(series(metrics, 'studio_queue_consumers', ofQueue)).toBe(0);
    expect(series(metrics, 'studio_queue_messages_added_total', ofQueue)).toBeGreaterThanOrEqual(4);
    // Absent, not 0, when the broker does not date the head (as for these messages): unknown.
    expect(metrics).toContain('# TYPE studio_queue_oldest_message_age_seconds gauge');
    expect(series(metrics, 'studio_node_up', { cluster: clusterName, node: 'gone' })).toBe(0);
    expect(series(metrics, 'studio_node_live', { cluster: clusterName, node: broker.nodes[0].name })).toBe(1);
    expect(series(metrics, 'studio_queues_not_exported', { cluster: clusterName })).toBe(0);
    await drainQueue(broker, queue);
  });

  it('fires on an unreachable node, and a receiver that is down gets retries with backoff, logged', async () => {
    webhook.failNext(2);
    const before = webhook.received.length;
    const rule = await addRule({ name: 'unreachable', kind: 'node-unreachable', subjects: 'gone' });
    await waitFor('the node alert firing', async () => (await alertRows(rule))[0]?.state === 'firing');
    await waitFor('the webhook to be told after two refusals', () => webhook.received.length === before + 1, {
      timeoutMs: 20_000,
    });
    // The deliverer records the outcome after the receiver's answer, so the row can trail the request.
    const log = await waitFor('the delivery recorded', async () => {
      const [row] = await db.query(
        `SELECT d.attempts, d.status, d.last_error FROM alert_delivery d JOIN alert a ON a.id = d.alert_id
          JOIN alert_receiver r ON r.id = d.receiver_id WHERE a.rule_id = $1 AND r.name = 'hook'`,
        [rule],
      );
      return row?.status === 'pending' ? undefined : row;
    });
    expect(log).toMatchObject({ attempts: 3, status: 'delivered', last_error: null });
    // Deleting the rule ends its alert at the next tick, and the receivers are told.
    await db.query(`UPDATE alert_rule SET deleted_at = now(), enabled = false WHERE id = $1`, [rule]);
    await waitFor('the alert resolved', async () => (await alertRows(rule))[0]?.state === 'resolved');
    expect((await alertRows(rule))[0].end_reason).toBe('the rule was deleted');
    await waitFor('the webhook told of the resolve', () => webhook.received.length === before + 2);
  });

  it("watches Studio's own observation: no notifier holding the cluster, broker events lost", async () => {
    // No notifier runs here: nobody holds the cluster's notifier lease.
    const unowned = await addRule({ name: 'no notifier', kind: 'studio-notifier-unowned', subjects: '*' });
    const lost = await addRule({
      name: 'events lost',
      kind: 'studio-events-dropped',
      subjects: '*',
      threshold: 600,
    });
    const unseen = await addRule({
      name: 'events unseen',
      kind: 'studio-notifications-unavailable',
      subjects: '*',
    });
    await waitFor('the notifier alert firing', async () => (await alertRows(unowned))[0]?.state === 'firing');
    expect((await alertRows(unowned))[0].subject).toBe('notifier');
    // Nothing lost yet; then the event store counts 7 dropped a minute ago.
    expect(await alertRows(lost)).toEqual([]);
    await db.query(
      `INSERT INTO event_drop_counter (cluster_id, source, dropped, first_at, last_at)
       VALUES ($1, 'notifier', 7, now() - interval '2 minutes', now() - interval '1 minute')`,
      [cluster.id],
    );
    const [drop] = await waitFor('the lost-events alert', async () => {
      const rows = await alertRows(lost);
      return rows[0]?.state === 'firing' ? rows : undefined;
    });
    expect(drop).toMatchObject({ subject: 'events', value: 7 });
    // No verdict from a notifier: unknown, neither fired nor resolved.
    expect(await alertRows(unseen)).toEqual([]);
    // The notifier recorded a period it did not observe, ended a minute ago: 90 s long.
    const unobserved = await addRule({
      name: 'unobserved',
      kind: 'studio-unobserved',
      subjects: 'observation',
      threshold: 600,
    });
    await db.query(
      `INSERT INTO broker_event (received_at, cluster_id, event_id, type, node, props)
       VALUES (now(), $1, $2, 'STUDIO_NOTIFICATIONS_UNOBSERVED', $3, $4)`,
      [
        cluster.id,
        randomUUID(),
        broker.nodes[0].name,
        {
          from: new Date(Date.now() - 150_000).toISOString(),
          until: new Date(Date.now() - 60_000).toISOString(),
          reason: 'the notifier was not running',
        },
      ],
    );
    const [gap] = await waitFor('the unobserved alert', async () => {
      const rows = await alertRows(unobserved);
      return rows[0]?.state === 'firing' ? rows : undefined;
    });
    expect(gap).toMatchObject({ subject: 'observation' });
    expect(gap.value).toBeCloseTo(90, 0);
    await db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [unobserved]);
    await db.query(`UPDATE alert_rule SET enabled = false WHERE id = ANY ($1::uuid[])`, [
      [unowned, lost, unseen],
    ]);
    await db.query(`DELETE FROM event_drop_counter WHERE cluster_id = $1`, [cluster.id]);
  });

  it('tells Slack, Teams and email each in its own shape; the mail over STARTTLS, logged in', async () => {
    const chat: { path: string; body: { text?: string; type?: string } }[] = [];
    const chatServer = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        chat.push({ path: req.url ?? '', body: JSON.parse(body) as { text?: string } });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => chatServer.listen(0, '127.0.0.1', resolve));
    const chatUrl = `http://127.0.0.1:${(chatServer.address() as AddressInfo).port}`;
    const shown = { url: `${chatUrl}/…` };
    const receivers = [
      await insertReceiver(db, cluster.id, {
        name: 'slack',
        kind: 'slack',
        ...shown,
        secret: `${chatUrl}/slack`,
      }),
      await insertReceiver(db, cluster.id, {
        name: 'teams',
        kind: 'teams',
        ...shown,
        secret: `${chatUrl}/teams`,
      }),
      await insertReceiver(db, cluster.id, {
        name: 'mail',
        kind: 'email',
        url: smtp.url,
        secret: 'an-smtp-password',
        email: { from: 'studio@example.com', to: ['oncall@example.com'], user: 'studio-alerts' },
      }),
    ];
    const rule = await addRule({ name: 'told everywhere', kind: 'node-unreachable', subjects: 'gone' });
    try {
      await waitFor('Slack and Teams told', () => chat.length === 2);
      expect(chat.find((c) => c.path === '/slack')?.body.text).toBe(
        `FIRING: told everywhere on gone (${clusterName})`,
      );
      expect(chat.find((c) => c.path === '/teams')?.body.type).toBe('message');
      const [mail] = await waitFor('the mail', () =>
        smtp.received.length === 1 ? smtp.received : undefined,
      );
      expect(mail).toMatchObject({
        from: 'studio@example.com',
        to: ['oncall@example.com'],
        user: 'studio-alerts',
        secure: true,
      });
      expect(mail.raw).toContain(`Subject: [critical] FIRING: told everywhere on gone (${clusterName})`);
      expect(mail.raw).toContain('Node gone does not answer its polls.');
      // Turning the rule off resolves its alert: each is told of that too.
      await db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);
      await waitFor('each told of the resolve', () => chat.length === 4 && smtp.received.length === 2);
      expect(chat.map((c) => c.body.text ?? 'card').sort()).toContain(
        `RESOLVED: told everywhere on gone (${clusterName})`,
      );
    } finally {
      await db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);
      await db.query(`DELETE FROM alert_receiver WHERE id = ANY ($1::uuid[])`, [receivers]);
      await new Promise<void>((resolve) => chatServer.close(() => resolve()));
    }
  });

  it('records when the rules were evaluated, so a stale count can say so', async () => {
    const [evaluation] = await db.query(
      `SELECT evaluated_at, interval_ms FROM alert_evaluation WHERE cluster_id = $1`,
      [cluster.id],
    );
    expect(Date.now() - (evaluation.evaluated_at as Date).getTime()).toBeLessThan(5 * TICK_MS);
    expect(evaluation.interval_ms).toBe(TICK_MS);
  });

  it('keeps resolved alerts for their retention, then reaps them with their delivery log, counted', async () => {
    const rule = await addRule({
      name: 'history',
      kind: 'queue-depth',
      subjects: 'nothing.matches',
      threshold: 1,
    });
    const insert = (state: string, endedDaysAgo: number | null) =>
      db.query(
        `INSERT INTO alert (cluster_id, rule_id, subject, state, started_at, ended_at, last_evaluated_at)
         VALUES ($1, $2, $3, $4, now() - interval '40 days',
                 CASE WHEN $5::int IS NULL THEN NULL ELSE now() - $5::int * interval '1 day' END, now())
         RETURNING id`,
        [cluster.id, rule, `history.${state}.${endedDaysAgo}`, state, endedDaysAgo],
      );
    const [[old], [recent]] = [await insert('resolved', 31), await insert('resolved', 29)];
    await db.query(
      `INSERT INTO alert_delivery (cluster_id, alert_id, transition, payload, status) VALUES ($1, $2, 'resolved', '{}', 'delivered')`,
      [cluster.id, old.id],
    );
    await db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);

    expect(await scraper.app.get(AlertHistoryReaperService).reap()).toBeGreaterThanOrEqual(1);
    const left = (await alertRows(rule)).map((a: { id: string }) => a.id);
    expect(left).toEqual([recent.id]);
    expect(await db.query(`SELECT 1 FROM alert_delivery WHERE alert_id = $1`, [old.id])).toEqual([]);
    const metrics = await (await fetch(`${scraper.url}/metrics`)).text();
    expect(metrics).toMatch(/studio_alert_history_reaped_total(\{[^}]*\})? [1-9]/);
  });

  it('forecasts an address filling at a steady rate within a tick of the moment, then sees it page', async () => {
    const address = `alerting.paged.${randomUUID()}`;
    const LIMIT = 200_000;
    const WITHIN_S = 8;
    await brokerExec(broker, 'addAddressSettings(java.lang.String,java.lang.String)', [
      address,
      JSON.stringify({ maxSizeBytes: LIMIT, pageSizeBytes: 20_000, addressFullMessagePolicy: 'PAGE' }),
    ]);
    await brokerExec(broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: address, address, 'routing-type': 'ANYCAST' }),
      true,
    ]);
    try {
      await forecastsThenPages(address, LIMIT, WITHIN_S);
    } finally {
      await brokerExec(broker, 'destroyQueue(java.lang.String,boolean)', [address, true]).catch(
        () => undefined,
      );
      await brokerExec(broker, 'removeAddressSettings(java.lang.String)', [address]);
    }
  });

  /** The forecast and paging test's body: `address` has a limit of `LIMIT` bytes and pages at it. */
  async function forecastsThenPages(address: string, LIMIT: number, WITHIN_S: number): Promise<void> {
    const forecastRule = await addRule({
      name: 'filling',
      kind: 'address-full-forecast',
      subjects: `${address.slice(0, -4)}*`,
      threshold: WITHIN_S,
    });
    const pagingRule = await addRule({ name: 'paging', kind: 'address-paging', subjects: address });
    const mbean = `org.apache.activemq.artemis:broker="${broker.nodes[0].name}",component=addresses,address="${address}"`;
    const sizeNow = async () =>
      (await brokerJolokia(broker, { type: 'read', mbean, attribute: 'AddressSize' })).value as number;

    // A producer at a steady rate (about 10 KB/s: full in some 20 s), and the broker's own size
    // sampled four times a second: the truth the forecast is held against.
    const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
    const samples: { at: number; size: number }[] = [];
    try {
      const sender = await client.createAwaitableSender({
        target: { address, capabilities: ['queue'] },
      });
      const started = Date.now();
      let sent = 0;
      let paging = false;
      while (!paging && Date.now() - started < 60_000) {
        const due = started + sent * 140;
        if (Date.now() >= due) {
          await sender.send({ body: 'x'.repeat(1000), durable: true });
          sent++;
          if (sent % 2 === 0) {
            const size = await sizeNow();
            samples.push({ at: Date.now(), size });
            paging = size >= LIMIT;
          }
        } else await new Promise((r) => setTimeout(r, due - Date.now()));
      }
      expect(paging).toBe(true);
    } finally {
      await client.close();
    }

    // When the truth crossed "full within WITHIN_S seconds": a straight line through the samples.
    const filling = samples.filter((s) => s.size > 0 && s.size < LIMIT);
    const n = filling.length;
    const mt = filling.reduce((a, s) => a + s.at, 0) / n;
    const ms = filling.reduce((a, s) => a + s.size, 0) / n;
    const perMs =
      filling.reduce((a, s) => a + (s.at - mt) * (s.size - ms), 0) /
      filling.reduce((a, s) => a + (s.at - mt) ** 2, 0);
    const moment = mt + (LIMIT - WITHIN_S * 1000 * perMs - ms) / perMs;

    const [forecast] = await waitFor('the forecast alert', async () => {
      const rows = await alertRows(forecastRule);
      return rows.length === 1 ? rows : undefined;
    });
    expect(forecast).toMatchObject({ subject: address, state: 'firing' });
    const [{ started_at: startedAt }] = await db.query(`SELECT started_at FROM alert WHERE id = $1`, [
      forecast.id,
    ]);
    const late = (startedAt as Date).getTime() - moment;
    expect(late).toBeGreaterThan(-500);
    expect(late).toBeLessThan(TICK_MS + 750);

    const [paged] = await waitFor('the paging alert', async () => {
      const rows = await alertRows(pagingRule);
      return rows[0]?.state === 'firing' ? rows : undefined;
    });
    expect(paged.subject).toBe(address);
    const metrics = await (await fetch(`${scraper.url}/metrics`)).text();
    const pagingLine = metrics
      .split('\n')
      .find((l) => l.startsWith(`studio_address_paging{cluster="${clusterName}",address="${address}"`));
    expect(pagingLine).toMatch(/ 1$/);

    await db.query(`UPDATE alert_rule SET enabled = false WHERE id = ANY ($1::uuid[])`, [
      [forecastRule, pagingRule],
    ]);
  }

  it('goes on after the owner stops: the next owner continues the alert, and each receiver hears once of each', async () => {
    const second = `alerting.takeover.${randomUUID()}`;
    await brokerExec(broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: second, address: second, 'routing-type': 'ANYCAST' }),
      true,
    ]);
    try {
      const rule = await addRule({
        name: 'handed over',
        kind: 'queue-depth',
        subjects: second,
        threshold: 0,
      });
      const told = () =>
        webhook.received.filter((r) => r.alert.ruleName === 'handed over').map((r) => r.transition);
      await fillQueue(broker, second, 3);
      await waitFor('the webhook told it fires', () => told().length === 1);
      const [firing] = await alertRows(rule);

      const next = await startService(ScraperModule, scraperEnv);
      await scraper.close();
      scraper = next;
      await drainQueue(broker, second);
      await waitFor('the resolve, from the next owner', () => told().length === 2, { timeoutMs: 30_000 });
      expect(told()).toEqual(['firing', 'resolved']);
      // The same alert, continued: not a second one opened by the new owner.
      expect(await alertRows(rule)).toEqual([expect.objectContaining({ id: firing.id, state: 'resolved' })]);
      const held = (await alertmanager.alerts()).filter((a) => a.labels.alertname === 'handed over');
      expect(held.every((a) => a.status.state !== 'active')).toBe(true);
    } finally {
      await brokerExec(broker, 'destroyQueue(java.lang.String,boolean)', [second, true]).catch(
        () => undefined,
      );
    }
  });
});
