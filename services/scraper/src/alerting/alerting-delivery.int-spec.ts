import {
  brokerExec,
  brokerJolokia,
  drainQueue,
  fillQueue,
  insertReceiver,
  openAmqpClient,
  startService,
  waitFor,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScraperModule } from '../app.module';
import { AlertingStack, CONSOLE_URL, TICK_MS } from './alerting-stack.fixture';
import { AlertHistoryReaperService } from './evaluation/alert-history-reaper.service';

describe("alerting's receivers, history, forecasts and handover, against a real broker, PostgreSQL, NATS and Alertmanager", () => {
  const stack = new AlertingStack();

  beforeAll(() => stack.start(), 60_000);
  afterAll(() => stack.stop());

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
      await insertReceiver(stack.db, stack.cluster.id, {
        name: 'slack',
        kind: 'slack',
        ...shown,
        secret: `${chatUrl}/slack`,
      }),
      await insertReceiver(stack.db, stack.cluster.id, {
        name: 'teams',
        kind: 'teams',
        ...shown,
        secret: `${chatUrl}/teams`,
      }),
      await insertReceiver(stack.db, stack.cluster.id, {
        name: 'mail',
        kind: 'email',
        url: stack.smtp.url,
        secret: 'an-smtp-password',
        email: { from: 'studio@example.com', to: ['oncall@example.com'], user: 'studio-alerts' },
      }),
    ];
    const rule = await stack.addRule({ name: 'told everywhere', kind: 'node-unreachable', subjects: 'gone' });
    try {
      await waitFor('Slack and Teams told', () => chat.length === 2);
      expect(chat.find((c) => c.path === '/slack')?.body.text).toBe(
        `FIRING: told everywhere on gone (${stack.clusterName})`,
      );
      expect(chat.find((c) => c.path === '/teams')?.body.type).toBe('message');
      const [mail] = await waitFor('the mail', () =>
        stack.smtp.received.length === 1 ? stack.smtp.received : undefined,
      );
      expect(mail).toMatchObject({
        from: 'studio@example.com',
        to: ['oncall@example.com'],
        user: 'studio-alerts',
        secure: true,
      });
      expect(mail.raw).toContain(
        `Subject: [critical] FIRING: told everywhere on gone (${stack.clusterName})`,
      );
      expect(mail.raw).toContain('Node gone does not answer its polls.');
      // The body is quoted-printable: a long line is cut with a soft break ("=" at its end).
      const unfolded = mail.raw.replace(/=\r?\n/g, '');
      expect(unfolded).toContain(`In Studio: ${CONSOLE_URL}/clusters/${stack.cluster.id}/alerts/`);
      // Turning the rule off resolves its alert: each is told of that too.
      await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);
      await waitFor('each told of the resolve', () => chat.length === 4 && stack.smtp.received.length === 2);
      expect(chat.map((c) => c.body.text ?? 'card').sort()).toContain(
        `RESOLVED: told everywhere on gone (${stack.clusterName})`,
      );
    } finally {
      await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);
      await stack.db.query(`DELETE FROM alert_receiver WHERE id = ANY ($1::uuid[])`, [receivers]);
      await new Promise<void>((resolve) => chatServer.close(() => resolve()));
    }
  });

  it('records when the rules were evaluated, so a stale count can say so', async () => {
    const [evaluation] = await stack.db.query(
      // The rule just before was a node rule: evaluated after tier A.
      `SELECT evaluated_at, interval_ms, error FROM alert_evaluation WHERE cluster_id = $1 AND scope = 'tier-a'`,
      [stack.cluster.id],
    );
    expect(Date.now() - (evaluation.evaluated_at as Date).getTime()).toBeLessThan(5 * TICK_MS);
    expect(evaluation.interval_ms).toBe(TICK_MS);
    expect(evaluation.error).toBeNull();
  });

  it('keeps resolved alerts for their retention, then reaps them with their delivery log, counted', async () => {
    const rule = await stack.addRule({
      name: 'history',
      kind: 'queue-depth',
      subjects: 'nothing.matches',
      threshold: 1,
    });
    const insert = (state: string, endedDaysAgo: number | null) =>
      stack.db.query(
        `INSERT INTO alert (cluster_id, rule_id, subject, state, started_at, ended_at, last_evaluated_at)
         VALUES ($1, $2, $3, $4, now() - interval '40 days',
                 CASE WHEN $5::int IS NULL THEN NULL ELSE now() - $5::int * interval '1 day' END, now())
         RETURNING id`,
        [stack.cluster.id, rule, `history.${state}.${endedDaysAgo}`, state, endedDaysAgo],
      );
    const [[old], [recent]] = [await insert('resolved', 31), await insert('resolved', 29)];
    await stack.db.query(
      `INSERT INTO alert_delivery (cluster_id, alert_id, transition, payload, status) VALUES ($1, $2, 'resolved', '{}', 'delivered')`,
      [stack.cluster.id, old.id],
    );
    await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);

    expect(await stack.scraper.app.get(AlertHistoryReaperService).reap()).toBeGreaterThanOrEqual(1);
    const left = (await stack.alertRows(rule)).map((a: { id: string }) => a.id);
    expect(left).toEqual([recent.id]);
    expect(await stack.db.query(`SELECT 1 FROM alert_delivery WHERE alert_id = $1`, [old.id])).toEqual([]);
    const metrics = await (await fetch(`${stack.scraper.url}/metrics`)).text();
    expect(metrics).toMatch(/studio_alert_history_reaped_total(\{[^}]*\})? [1-9]/);
  });

  it('forecasts an address filling at a steady rate within a tick of the moment, then sees it page', async () => {
    const address = `alerting.paged.${randomUUID()}`;
    const LIMIT = 200_000;
    const WITHIN_S = 8;
    await brokerExec(stack.broker, 'addAddressSettings(java.lang.String,java.lang.String)', [
      address,
      JSON.stringify({ maxSizeBytes: LIMIT, pageSizeBytes: 20_000, addressFullMessagePolicy: 'PAGE' }),
    ]);
    await brokerExec(stack.broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: address, address, 'routing-type': 'ANYCAST' }),
      true,
    ]);
    try {
      await forecastsThenPages(address, LIMIT, WITHIN_S);
    } finally {
      await brokerExec(stack.broker, 'destroyQueue(java.lang.String,boolean)', [address, true]).catch(
        () => undefined,
      );
      await brokerExec(stack.broker, 'removeAddressSettings(java.lang.String)', [address]);
    }
  });

  /** The forecast and paging test's body: `address` has a limit of `LIMIT` bytes and pages at it. */
  async function forecastsThenPages(address: string, LIMIT: number, WITHIN_S: number): Promise<void> {
    const forecastRule = await stack.addRule({
      name: 'filling',
      kind: 'address-full-forecast',
      subjects: `${address.slice(0, -4)}*`,
      threshold: WITHIN_S,
    });
    const pagingRule = await stack.addRule({ name: 'paging', kind: 'address-paging', subjects: address });
    const mbean = `org.apache.activemq.artemis:broker="${stack.broker.nodes[0].name}",component=addresses,address="${address}"`;
    const sizeNow = async () =>
      (await brokerJolokia(stack.broker, { type: 'read', mbean, attribute: 'AddressSize' })).value as number;

    // A producer at a steady rate (about 10 KB/s: full in some 20 s), and the broker's own size
    // sampled four times a second: the truth the forecast is held against.
    const client = await openAmqpClient(
      stack.broker.nodes[0].amqpUrl,
      stack.broker.user,
      stack.broker.password,
    );
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
      const rows = await stack.alertRows(forecastRule);
      return rows.length === 1 ? rows : undefined;
    });
    expect(forecast).toMatchObject({ subject: address, state: 'firing' });
    const [{ started_at: startedAt }] = await stack.db.query(`SELECT started_at FROM alert WHERE id = $1`, [
      forecast.id,
    ]);
    const late = (startedAt as Date).getTime() - moment;
    expect(late).toBeGreaterThan(-500);
    expect(late).toBeLessThan(TICK_MS + 750);

    const [paged] = await waitFor('the paging alert', async () => {
      const rows = await stack.alertRows(pagingRule);
      return rows[0]?.state === 'firing' ? rows : undefined;
    });
    expect(paged.subject).toBe(address);
    const metrics = await (await fetch(`${stack.scraper.url}/metrics`)).text();
    const pagingLine = metrics
      .split('\n')
      .find((l) => l.startsWith(`studio_address_paging{cluster="${stack.clusterName}",address="${address}"`));
    expect(pagingLine).toMatch(/ 1$/);

    await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = ANY ($1::uuid[])`, [
      [forecastRule, pagingRule],
    ]);
  }

  it('goes on after the owner stops: the next owner continues the alert, and each receiver hears once of each', async () => {
    const second = `alerting.takeover.${randomUUID()}`;
    await brokerExec(stack.broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: second, address: second, 'routing-type': 'ANYCAST' }),
      true,
    ]);
    try {
      const rule = await stack.addRule({
        name: 'handed over',
        kind: 'queue-depth',
        subjects: second,
        threshold: 0,
      });
      const told = () =>
        stack.webhook.received.filter((r) => r.alert.ruleName === 'handed over').map((r) => r.transition);
      await fillQueue(stack.broker, second, 3);
      await waitFor('the webhook told it fires', () => told().length === 1);
      const [firing] = await stack.alertRows(rule);

      const next = await startService(ScraperModule, stack.scraperEnv);
      await stack.scraper.close();
      stack.scraper = next;
      await drainQueue(stack.broker, second);
      await waitFor('the resolve, from the next owner', () => told().length === 2, { timeoutMs: 30_000 });
      expect(told()).toEqual(['firing', 'resolved']);
      // The same alert, continued: not a second one opened by the new owner.
      expect(await stack.alertRows(rule)).toEqual([
        expect.objectContaining({ id: firing.id, state: 'resolved' }),
      ]);
      const held = (await stack.alertmanager.alerts()).filter((a) => a.labels.alertname === 'handed over');
      expect(held.every((a) => a.status.state !== 'active')).toBe(true);
    } finally {
      await brokerExec(stack.broker, 'destroyQueue(java.lang.String,boolean)', [second, true]).catch(
        () => undefined,
      );
    }
  });
});
