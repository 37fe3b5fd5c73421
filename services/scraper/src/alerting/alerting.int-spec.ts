import { buckets, CreateAlertRuleRequestSchema, leaseKey, ownerRpcs } from '@artemis-studio/contracts';
import { drainQueue, fillQueue, startService, waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { ScraperModule } from '../app.module';
import { AlertingStack, CONSOLE_URL, TICK_MS } from './alerting-stack.fixture';

describe('alerting against a real broker, PostgreSQL, NATS and Alertmanager', () => {
  const stack = new AlertingStack();

  beforeAll(() => stack.start(), 60_000);
  afterAll(() => stack.stop());

  it('takes a depth rule pending, then firing after its "for", tells every receiver once, and resolves it when drained', async () => {
    // Two teams share the cluster: each team's receiver hears of its own team's rules only.
    const teams = await stack.addTeamReceivers(['orders', 'payments']);
    const rule = await stack.addRule({
      name: 'deep',
      kind: 'queue-depth',
      subjects: 'alerting.*',
      threshold: 5,
      forSeconds: 3,
      labels: { team: 'orders' },
    });
    await fillQueue(stack.broker, stack.queue, 10);

    const [pending] = await waitFor('the alert pending', async () => {
      const rows = await stack.alertRows(rule);
      return rows.length === 1 && rows[0].state === 'pending' ? rows : undefined;
    });
    expect(pending).toMatchObject({ subject: stack.queue, value: 10, fired_at: null });
    const [firing] = await waitFor('the alert firing', async () => {
      const rows = await stack.alertRows(rule);
      return rows[0]?.state === 'firing' ? rows : undefined;
    });
    // Fired at the first tick after three seconds pending, not before.
    const startedAt = (await stack.db.query(`SELECT started_at FROM alert WHERE id = $1`, [firing.id]))[0]
      .started_at as Date;
    const firedAfter = (firing.fired_at as Date).getTime() - startedAt.getTime();
    expect(firedAfter).toBeGreaterThanOrEqual(3_000);
    expect(firedAfter).toBeLessThan(3_000 + 3 * TICK_MS);
    // Owed to the receivers without matchers and to the orders team's, not to the payments team's.
    const owed = await stack.db.query(
      `SELECT r.name FROM alert_delivery d JOIN alert_receiver r ON r.id = d.receiver_id
        WHERE d.alert_id = $1 AND d.transition = 'firing' ORDER BY r.name`,
      [firing.id],
    );
    expect(owed.map((r: { name: string }) => r.name)).toEqual(['am', 'hook', 'orders team']);
    await stack.db.query(`DELETE FROM alert_receiver WHERE id = ANY ($1::uuid[])`, [teams]);

    // Alertmanager holds it with our labels; the webhook got one signed firing.
    const held = await waitFor('Alertmanager to hold the alert', async () =>
      (await stack.alertmanager.alerts()).find((a) => a.labels.alertname === 'deep'),
    );
    expect(held.labels).toMatchObject({ queue: stack.queue, severity: 'critical', kind: 'queue-depth' });
    expect(held.status.state).toBe('active');
    // Its "Source" link is the alert's page in the console, as is the webhook's url.
    const page = `${CONSOLE_URL}/clusters/${stack.cluster.id}/alerts/${firing.id}`;
    expect(held.generatorURL).toBe(page);
    await waitFor('the webhook to be told', () => stack.webhook.received.length === 1);
    expect(stack.webhook.received[0]).toMatchObject({
      transition: 'firing',
      alert: { state: 'firing', subject: stack.queue },
      url: page,
    });
    // Captured and sent again, or altered: the receiver can tell.
    expect(await stack.webhook.replayLast()).toBe(401);
    expect(await stack.webhook.replayLast((body) => body.replace('"firing"', '"resolved"'))).toBe(401);
    expect(stack.webhook.refused).toEqual(['replayed', 'bad signature']);

    await drainQueue(stack.broker, stack.queue);
    await waitFor('the alert resolved', async () => (await stack.alertRows(rule))[0]?.state === 'resolved');
    await waitFor('the webhook told of the resolve', () => stack.webhook.received.length === 2);
    expect(stack.webhook.received.map((r) => r.transition)).toEqual(['firing', 'resolved']);
    expect((await stack.alertRows(rule))[0]).toMatchObject({
      end_reason: 'the condition no longer holds',
      value: 0,
    });
    // Alertmanager is told it ended (endsAt now): it no longer counts it active.
    await waitFor('Alertmanager to end it', async () => {
      const alert = (await stack.alertmanager.alerts()).find((a) => a.labels.alertname === 'deep');
      return !alert || alert.status.state !== 'active';
    });
    // Every transition was published on NATS for other tools.
    await waitFor('the transitions on NATS', () =>
      ['pending', 'firing', 'resolved'].every((s) =>
        stack.transitions.some((t) => t.alert.ruleName === 'deep' && t.state === s),
      ),
    );
    await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);
  });

  it("tests a rule against the owner's last figures, storing nothing and telling nobody", async () => {
    const test = (rule: Record<string, unknown>) =>
      stack.bus.request(
        ownerRpcs.alertRuleTest,
        { clusterId: stack.cluster.id, rule: CreateAlertRuleRequestSchema.parse({ name: 'draft', ...rule }) },
        { key: stack.cluster.id, timeoutMs: 5_000 },
      );
    const rulesBefore = await stack.db.query(
      `SELECT count(*)::int AS n FROM alert_rule WHERE cluster_id = $1`,
      [stack.cluster.id],
    );
    await fillQueue(stack.broker, stack.queue, 4);
    const deep = await waitFor('the test to see the depth', async () => {
      const answer = await test({ kind: 'queue-depth', subjects: 'alerting.*', threshold: 2 });
      return answer.readings.find((r) => r.subject === stack.queue)?.value === 4 ? answer : undefined;
    });
    expect(deep.readings[0]).toEqual({ subject: stack.queue, holds: true, value: 4 });
    expect(deep.holding).toBe(1);
    expect(deep.note).toBeNull(); // a depth needs no tick before this one
    // Every rule of the cluster is off: no tick kept the counters a rate needs, and the test says so.
    const rate = await test({ kind: 'queue-killed-rate', subjects: stack.queue, threshold: 1 });
    expect(rate.readings).toEqual([{ subject: stack.queue, holds: null, value: null }]);
    expect(rate.note).toMatch(/rates and forecasts/);
    const nodes = await test({ kind: 'node-unreachable', subjects: '*' });
    expect(nodes.readings.map((r) => [r.subject, r.holds])).toEqual([
      ['gone', true],
      [stack.broker.nodes[0].name, false],
    ]);
    expect(
      await stack.db.query(`SELECT count(*)::int AS n FROM alert_rule WHERE cluster_id = $1`, [
        stack.cluster.id,
      ]),
    ).toEqual(rulesBefore);
    await drainQueue(stack.broker, stack.queue);
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
    const scrape = async () => (await fetch(`${stack.scraper.url}/metrics`)).text();
    const ofQueue = { cluster: stack.clusterName, queue: stack.queue };
    await fillQueue(stack.broker, stack.queue, 4);
    const metrics = await waitFor('the queue on /metrics', async () => {
      const text = await scrape();
      return series(text, 'studio_queue_messages', ofQueue) === 4 ? text : undefined;
    });
    expect(series(metrics, 'studio_queue_consumers', ofQueue)).toBe(0);
    expect(series(metrics, 'studio_queue_messages_added_total', ofQueue)).toBeGreaterThanOrEqual(4);
    // Absent, not 0, when the broker does not date the head (as for these messages): unknown.
    expect(metrics).toContain('# TYPE studio_queue_oldest_message_age_seconds gauge');
    expect(series(metrics, 'studio_node_up', { cluster: stack.clusterName, node: 'gone' })).toBe(0);
    expect(
      series(metrics, 'studio_node_live', { cluster: stack.clusterName, node: stack.broker.nodes[0].name }),
    ).toBe(1);
    expect(series(metrics, 'studio_queues_not_exported', { cluster: stack.clusterName })).toBe(0);
    await drainQueue(stack.broker, stack.queue);
  });

  it('fires on an unreachable node, and a receiver that is down gets retries with backoff, logged', async () => {
    stack.webhook.failNext(2);
    const before = stack.webhook.received.length;
    const rule = await stack.addRule({ name: 'unreachable', kind: 'node-unreachable', subjects: 'gone' });
    await waitFor('the node alert firing', async () => (await stack.alertRows(rule))[0]?.state === 'firing');
    await waitFor(
      'the webhook to be told after two refusals',
      () => stack.webhook.received.length === before + 1,
      {
        timeoutMs: 20_000,
      },
    );
    // The deliverer records the outcome after the receiver's answer, so the row can trail the request.
    const log = await waitFor('the delivery recorded', async () => {
      const [row] = await stack.db.query(
        `SELECT d.attempts, d.status, d.last_error FROM alert_delivery d JOIN alert a ON a.id = d.alert_id
          JOIN alert_receiver r ON r.id = d.receiver_id WHERE a.rule_id = $1 AND r.name = 'hook'`,
        [rule],
      );
      return row?.status === 'pending' ? undefined : row;
    });
    expect(log).toMatchObject({ attempts: 3, status: 'delivered', last_error: null });
    // Deleting the rule ends its alert at the next tick, and the receivers are told.
    await stack.db.query(`UPDATE alert_rule SET deleted_at = now(), enabled = false WHERE id = $1`, [rule]);
    await waitFor('the alert resolved', async () => (await stack.alertRows(rule))[0]?.state === 'resolved');
    expect((await stack.alertRows(rule))[0].end_reason).toBe('the rule was deleted');
    await waitFor('the webhook told of the resolve', () => stack.webhook.received.length === before + 2);
  });

  it("watches Studio's own observation: no notifier holding the cluster, broker events lost", async () => {
    // No notifier runs here: nobody holds the cluster's notifier lease.
    const unowned = await stack.addRule({
      name: 'no notifier',
      kind: 'studio-notifier-unowned',
      subjects: '*',
    });
    const lost = await stack.addRule({
      name: 'events lost',
      kind: 'studio-events-dropped',
      subjects: '*',
      threshold: 600,
    });
    const unseen = await stack.addRule({
      name: 'events unseen',
      kind: 'studio-notifications-unavailable',
      subjects: '*',
    });
    await waitFor(
      'the notifier alert firing',
      async () => (await stack.alertRows(unowned))[0]?.state === 'firing',
    );
    expect((await stack.alertRows(unowned))[0].subject).toBe('notifier');
    // Nothing lost yet; then the event store counts 7 dropped a minute ago.
    expect(await stack.alertRows(lost)).toEqual([]);
    await stack.db.query(
      `INSERT INTO event_drop_counter (cluster_id, source, dropped, first_at, last_at)
       VALUES ($1, 'notifier', 7, now() - interval '2 minutes', now() - interval '1 minute')`,
      [stack.cluster.id],
    );
    const [drop] = await waitFor('the lost-events alert', async () => {
      const rows = await stack.alertRows(lost);
      return rows[0]?.state === 'firing' ? rows : undefined;
    });
    expect(drop).toMatchObject({ subject: 'events', value: 7 });
    // No verdict from a notifier: unknown, neither fired nor resolved.
    expect(await stack.alertRows(unseen)).toEqual([]);
    // The notifier recorded a period it did not observe, ended a minute ago: 90 s long.
    const unobserved = await stack.addRule({
      name: 'unobserved',
      kind: 'studio-unobserved',
      subjects: 'observation',
      threshold: 600,
    });
    await stack.db.query(
      `INSERT INTO broker_event (received_at, cluster_id, event_id, type, node, props)
       VALUES (now(), $1, $2, 'STUDIO_NOTIFICATIONS_UNOBSERVED', $3, $4)`,
      [
        stack.cluster.id,
        randomUUID(),
        stack.broker.nodes[0].name,
        {
          from: new Date(Date.now() - 150_000).toISOString(),
          until: new Date(Date.now() - 60_000).toISOString(),
          reason: 'the notifier was not running',
        },
      ],
    );
    const [gap] = await waitFor('the unobserved alert', async () => {
      const rows = await stack.alertRows(unobserved);
      return rows[0]?.state === 'firing' ? rows : undefined;
    });
    expect(gap).toMatchObject({ subject: 'observation' });
    expect(gap.value).toBeCloseTo(90, 0);
    await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [unobserved]);
    await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = ANY ($1::uuid[])`, [
      [unowned, lost, unseen],
    ]);
    await stack.db.query(`DELETE FROM event_drop_counter WHERE cluster_id = $1`, [stack.cluster.id]);
  });

  it('tells the receivers when no scraper polls the cluster, from a replica that does not own it', async () => {
    const rule = await stack.addRule({ name: 'nobody polls', kind: 'studio-scraper-unowned', subjects: '*' });
    const told = () =>
      stack.webhook.received.filter((r) => r.alert.ruleName === 'nobody polls').map((r) => r.transition);
    const leases = await stack.bus.kv(buckets.leases);
    const key = leaseKey('scraper', stack.cluster.id);
    try {
      // Polled by its owner: evaluated by the fleet's watch, and nothing opened.
      await waitFor('the fleet evaluated', async () => {
        const [e] = await stack.db.query(
          `SELECT evaluated_at FROM alert_evaluation WHERE cluster_id = $1 AND scope = 'fleet'`,
          [stack.cluster.id],
        );
        return e?.evaluated_at !== null && e?.evaluated_at !== undefined;
      });
      expect(await stack.alertRows(rule)).toEqual([]);
      // The owner stops, and a replica that hangs holds the lease: nobody polls, and the one replica
      // left owns nothing of it, yet evaluates the rule and tells the webhook.
      await stack.scraper.close();
      const now = Date.now();
      await leases.put(key, {
        owner: 'a-replica-that-hangs',
        acquiredAt: new Date(now).toISOString(),
        expiresAt: new Date(now + 600_000).toISOString(),
      });
      stack.scraper = await startService(ScraperModule, stack.scraperEnv);
      await waitFor('the webhook told nobody polls', () => told().length === 1, { timeoutMs: 40_000 });
      const [firing] = await stack.alertRows(rule);
      expect(firing).toMatchObject({ subject: 'scraper', state: 'firing' });
      expect(firing.value).toBeGreaterThanOrEqual(15);
      // The lease lapses for good: the replica takes the cluster, polls it, and the alert resolves.
      await leases.delete(key);
      await waitFor('the webhook told it resolved', () => told().length === 2, { timeoutMs: 30_000 });
      expect(told()).toEqual(['firing', 'resolved']);
    } finally {
      await stack.db.query(`UPDATE alert_rule SET enabled = false WHERE id = $1`, [rule]);
      const held = await leases.get(key);
      if (held?.value.owner === 'a-replica-that-hangs') await leases.delete(key);
    }
  }, 90_000);
});
