import {
  AlertListSchema,
  AlertSummarySchema,
  ReceiverListSchema,
  ReceiverSchema,
  SubjectActionListSchema,
} from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import { createDataSource } from '@artemis-studio/db';
import {
  insertCluster,
  signIn,
  signInAs,
  spawnService,
  testDatabaseUrl,
  type ApiSession,
  type ServiceProcess,
} from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** The gateway's side of alerting against real PostgreSQL: what it keeps, refuses, hides and counts. */
describe('alerting routes against real PostgreSQL', () => {
  let db: DataSource;
  let gateway: ServiceProcess;
  let admin: ApiSession;
  let viewer: ApiSession;
  let clusterId: string;
  const url = (path: string) => `${gateway.url}/api/v1/clusters/${clusterId}/${path}`;

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    clusterId = (
      await insertCluster(db, { nodes: [{ name: 'a', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }] })
    ).id;
    gateway = await spawnService('gateway', 18590);
    admin = await signIn(gateway.url);
    viewer = await signInAs(gateway.url, admin, 'viewer');
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await db.query(`DELETE FROM cluster WHERE id = $1`, [clusterId]);
    await db.destroy();
  });

  it('refuses a rule that does not make sense, field by field, and keeps nothing of it', async () => {
    const refused = await admin.fetch(url('alert-rules'), json('POST', { name: 'x', kind: 'queue-depth' }));
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { details: { path: string; message: string }[] } };
    expect(body.error.details).toContainEqual(expect.objectContaining({ path: 'threshold' }));
    const fraction = await admin.fetch(
      url('alert-rules'),
      json('POST', { name: 'disk', kind: 'node-disk-usage', threshold: 90 }),
    );
    expect(fraction.status).toBe(400);
    expect((await db.query(`SELECT 1 FROM alert_rule WHERE cluster_id = $1`, [clusterId])).length).toBe(0);
  });

  it('keeps a rule, refuses a second of the same name, and deletes it out of sight but not out of record', async () => {
    const rule = {
      name: 'backlog',
      kind: 'queue-depth',
      threshold: 100,
      subjects: 'orders.*',
      forSeconds: 60,
    };
    const created = await admin.fetch(url('alert-rules'), json('POST', rule));
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect((await admin.fetch(url('alert-rules'), json('POST', rule))).status).toBe(409);
    // A viewer sees it and may not change it.
    const list = (await (await viewer.fetch(url('alert-rules'))).json()) as { items: { name: string }[] };
    expect(list.items.map((r) => r.name)).toEqual(['backlog']);
    expect((await viewer.fetch(url(`alert-rules/${id}`), { method: 'DELETE' })).status).toBe(403);
    expect((await admin.fetch(url(`alert-rules/${id}`), { method: 'DELETE' })).status).toBe(204);
    expect(((await (await admin.fetch(url('alert-rules'))).json()) as { items: unknown[] }).items).toEqual(
      [],
    );
    expect(
      await db.query(`SELECT enabled, deleted_at IS NOT NULL AS deleted FROM alert_rule WHERE id = $1`, [id]),
    ).toEqual([{ enabled: false, deleted: true }]);
  });

  it('refuses to test a rule that does not make sense, and says so when no owner holds the cluster', async () => {
    const bad = await admin.fetch(url('alert-rules/test'), json('POST', { name: 'x', kind: 'queue-depth' }));
    expect(bad.status).toBe(400);
    // No scraper runs here: nobody holds the cluster's figures to test against.
    const unowned = await viewer.fetch(
      url('alert-rules/test'),
      json('POST', { name: 'draft', kind: 'queue-depth', threshold: 1 }),
    );
    expect(unowned.status).toBe(503);
    expect(await unowned.json()).toMatchObject({ error: { code: expect.any(String) } });
  });

  it('seals a webhook secret and never answers it, and refuses a password in a URL', async () => {
    const secret = 'a-signing-secret-nobody-reads';
    const created = await admin.fetch(
      url('alert-receivers'),
      json('POST', { name: 'hook', kind: 'webhook', url: 'https://hooks.example/studio', secret }),
    );
    expect(created.status).toBe(201);
    const text = JSON.stringify(
      ReceiverListSchema.parse(await (await admin.fetch(url('alert-receivers'))).json()),
    );
    expect(text).toContain('"hasSecret":true');
    expect(text).not.toContain(secret);
    const [row] = await db.query(`SELECT sealed_secret FROM alert_receiver WHERE cluster_id = $1`, [
      clusterId,
    ]);
    expect((row.sealed_secret as Buffer).includes(Buffer.from(secret))).toBe(false);
    const withPassword = await admin.fetch(
      url('alert-receivers'),
      json('POST', { name: 'am', kind: 'alertmanager', url: 'http://user:pw@alertmanager:9093' }),
    );
    expect(withPassword.status).toBe(400);
    expect((await viewer.fetch(url('alert-receivers'))).status).toBe(403);
  });

  it("seals a chat webhook whole and shows its host only; keeps an email receiver's settings, checked by kind", async () => {
    const slackUrl = 'https://hooks.slack.com/services/T000/B000/a-token-that-is-a-credential';
    const slack = await admin.fetch(
      url('alert-receivers'),
      json('POST', { name: 'slack', kind: 'slack', secret: slackUrl, minSeverity: 'critical' }),
    );
    expect(slack.status).toBe(201);
    const created = ReceiverSchema.parse(await slack.json());
    expect(created).toMatchObject({ url: 'https://hooks.slack.com/…', hasSecret: true, email: null });
    expect(JSON.stringify(await (await admin.fetch(url('alert-receivers'))).json())).not.toContain('a-token');

    const email = await admin.fetch(
      url('alert-receivers'),
      json('POST', {
        name: 'on-call mail',
        kind: 'email',
        url: 'smtp://mail.example:587',
        email: { from: 'studio@example.com', to: ['oncall@example.com'], user: 'studio' },
        secret: 'an-smtp-password',
      }),
    );
    expect(email.status).toBe(201);
    const mail = ReceiverSchema.parse(await email.json());
    expect(mail.email).toEqual({ from: 'studio@example.com', to: ['oncall@example.com'], user: 'studio' });

    // A change that does not fit the kind is refused, and changes nothing.
    const wrong = await admin.fetch(
      url(`alert-receivers/${created.id}`),
      json('PUT', { name: 'slack', url: 'https://elsewhere.example/hook' }),
    );
    expect(wrong.status).toBe(400);
    const badRecipient = await admin.fetch(
      url('alert-receivers'),
      json('POST', {
        name: 'bad mail',
        kind: 'email',
        url: 'smtp://mail.example',
        email: { from: 'studio@example.com', to: ['not an address'] },
      }),
    );
    expect(badRecipient.status).toBe(400);
    // A new webhook URL for Slack is sealed in turn, and the shown host follows it.
    const moved = await admin.fetch(
      url(`alert-receivers/${created.id}`),
      json('PUT', { name: 'slack', secret: 'https://hooks.slack.example/services/new' }),
    );
    expect(ReceiverSchema.parse(await moved.json()).url).toBe('https://hooks.slack.example/…');
    for (const r of [created, mail])
      expect((await admin.fetch(url(`alert-receivers/${r.id}`), { method: 'DELETE' })).status).toBe(204);
  });

  it('lists a firing alert to those who see its cluster, and counts it; a silenced one is counted apart', async () => {
    const [{ id: ruleId }] = await db.query(
      `INSERT INTO alert_rule (cluster_id, name, kind, threshold, severity) VALUES ($1, 'deep', 'queue-depth', 5, 'critical')
       RETURNING id`,
      [clusterId],
    );
    await db.query(
      `INSERT INTO alert (cluster_id, rule_id, subject, state, value, started_at, fired_at, last_evaluated_at, notified)
       VALUES ($1, $2, 'orders', 'firing', 12, now(), now(), now(), true)`,
      [clusterId, ruleId],
    );
    await db.query(
      `INSERT INTO alert_evaluation (cluster_id, scope, evaluated_at, interval_ms, rules) VALUES ($1, 'tier-b', now(), 5000, 1)`,
      [clusterId],
    );
    const listed = AlertListSchema.parse(await (await viewer.fetch(`${gateway.url}/api/v1/alerts`)).json());
    expect(listed.items.find((a) => a.clusterId === clusterId)).toMatchObject({
      ruleName: 'deep',
      subject: 'orders',
      state: 'firing',
      description: 'Queue orders holds 12 messages (threshold 5).',
      silencedBy: null,
    });
    const summary = async () =>
      AlertSummarySchema.parse(await (await viewer.fetch(`${gateway.url}/api/v1/alerts/summary`)).json());
    const before = await summary();
    expect(before.unevaluated.map((u) => u.clusterId)).not.toContain(clusterId);

    // A viewer may not silence; an operator's silence (admin here) mutes it in the count.
    const silence = {
      subjects: 'ord*',
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'deploy',
    };
    expect((await viewer.fetch(url('alert-silences'), json('POST', silence))).status).toBe(403);
    expect((await admin.fetch(url('alert-silences'), json('POST', silence))).status).toBe(201);
    const after = await summary();
    expect(after.firing).toBe(before.firing - 1);
    expect(after.silenced).toBe(before.silenced + 1);
    // The Alerts page's filters: by cluster, rule and whether a silence covers it now.
    const ids = async (query: string) =>
      AlertListSchema.parse(
        await (await viewer.fetch(`${gateway.url}/api/v1/alerts?${query}`)).json(),
      ).items.map((a) => a.subject);
    const mine = `cluster=${clusterId}&rule=${ruleId}`;
    expect(await ids(`${mine}&silenced=true`)).toEqual(['orders']);
    expect(await ids(`${mine}&silenced=false`)).toEqual([]);
    expect((await viewer.fetch(`${gateway.url}/api/v1/alerts?silenced=maybe`)).status).toBe(400);

    // An evaluation older than twice its interval: the count says it cannot be trusted.
    await db.query(
      `UPDATE alert_evaluation SET evaluated_at = now() - interval '11 seconds' WHERE cluster_id = $1`,
      [clusterId],
    );
    expect((await summary()).unevaluated).toContainEqual(expect.objectContaining({ clusterId }));

    // A tick that could not read a node evaluated nothing it can trust: said at once, with why.
    await db.query(
      `UPDATE alert_evaluation SET evaluated_at = now(), error = 'node n2 could not be read: connection refused'
        WHERE cluster_id = $1`,
      [clusterId],
    );
    expect((await summary()).unevaluated).toContainEqual(
      expect.objectContaining({
        clusterId,
        reason:
          'its queue and address rules are unknown: at the last tick node n2 could not be read: connection refused',
      }),
    );

    // The rule on its scraper has a stamp of its own, written by any replica: stale, none runs.
    await db.query(`UPDATE alert_evaluation SET error = NULL WHERE cluster_id = $1`, [clusterId]);
    await db.query(
      `INSERT INTO alert_rule (cluster_id, name, kind, severity) VALUES ($1, 'no scraper', 'studio-scraper-unowned', 'critical')`,
      [clusterId],
    );
    await db.query(
      `INSERT INTO alert_evaluation (cluster_id, scope, evaluated_at, interval_ms, rules)
       VALUES ($1, 'fleet', now() - interval '11 seconds', 5000, 1)`,
      [clusterId],
    );
    expect((await summary()).unevaluated).toContainEqual(
      expect.objectContaining({
        clusterId,
        reason: 'its scraper rules were not evaluated lately: no scraper replica runs',
      }),
    );
  });

  it("lists the actions people took on an alert's queue around it, to whoever sees the cluster, without the audit row's address", async () => {
    const [{ id: ruleId }] = await db.query(
      `INSERT INTO alert_rule (cluster_id, name, kind, threshold, severity) VALUES ($1, 'backlog', 'queue-depth', 5, 'warning')
       RETURNING id`,
      [clusterId],
    );
    const [{ id: alertId }] = await db.query(
      `INSERT INTO alert (cluster_id, rule_id, subject, state, value, started_at, fired_at, ended_at, end_reason, last_evaluated_at, notified)
       VALUES ($1, $2, 'payments.in', 'resolved', 12, now() - interval '30 minutes', now() - interval '29 minutes',
               now() - interval '5 minutes', 'resolved', now(), true) RETURNING id`,
      [clusterId, ruleId],
    );
    const audit = (ago: string, action: string, target: string, outcome: string, detail: object) =>
      db.query(
        `INSERT INTO audit_event (at, actor_kind, actor_name, address, role, action, cluster_id, target, outcome, status, detail)
         VALUES (now() - $1::interval, 'user', 'alice', '10.1.2.3', 'operator', $2, $3, $4, $5, 200, $6)`,
        [ago, action, clusterId, target, outcome, JSON.stringify(detail)],
      );
    await audit('20 minutes', 'queue.purge', 'payments.in', 'success', { removed: 12, filter: 'x > 1' });
    await audit('19 minutes', 'queue.purge', 'payments.in', 'failure', { removed: 0 });
    await audit('18 minutes', 'queue.pause', 'orders.in', 'success', {});
    await audit('3 hours', 'queue.resume', 'payments.in', 'success', {});
    const answer = await viewer.fetch(url(`alerts/${alertId}/actions`));
    expect(answer.status).toBe(200);
    const { items } = SubjectActionListSchema.parse(await answer.json());
    expect(items).toEqual([
      { at: expect.any(String), action: 'queue.purge', actor: 'alice', counts: { removed: 12 } },
    ]);
    expect(JSON.stringify(items)).not.toContain('10.1.2.3');
    expect((await viewer.fetch(url(`alerts/${randomUUID()}/actions`))).status).toBe(404);
  });
});
