import { IncidentSchema, type Incident } from '@artemis-studio/contracts';
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
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/**
 * A scripted incident in real PostgreSQL, read through the real gateway and event store: a consumer
 * dies, the queue fills, the alert fires, an operator purges, it resolves; every moment in order.
 */
describe("a cluster's incident against real PostgreSQL and the event store", () => {
  let db: DataSource;
  let gateway: ServiceProcess;
  let store: ServiceProcess;
  let viewer: ApiSession;
  let clusterId: string;
  let alertId: string;
  const url = (query: string) => `${gateway.url}/api/v1/clusters/${clusterId}/incident?${query}`;
  const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

  beforeAll(async () => {
    db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    clusterId = (
      await insertCluster(db, { nodes: [{ name: 'a', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }] })
    ).id;
    [gateway, store] = await Promise.all([
      spawnService('gateway', 18592),
      spawnService('event-store', 18593),
    ]);
    viewer = await signInAs(gateway.url, await signIn(gateway.url), 'viewer');
    const event = (at: Date, type: string, queue: string | null, props: object = {}) =>
      db.query(
        `INSERT INTO broker_event (broker_ts, received_at, cluster_id, event_id, type, node, address, queue, remote_address, props)
         VALUES ($1, $1, $2, $3, $4, 'a', $5, $5, '10.0.0.9', $6)`,
        [at, clusterId, randomUUID(), type, queue, props],
      );
    await event(minutesAgo(40), 'CONSUMER_CLOSED', 'orders.in');
    await event(minutesAgo(40), 'CONSUMER_CLOSED', 'audit.in'); // another queue: not this incident's
    await event(minutesAgo(3), 'CONSUMER_CREATED', 'orders.in');
    await event(minutesAgo(200), 'CONSUMER_CREATED', 'orders.in'); // before the range
    await db.query(
      `INSERT INTO broker_event (received_at, cluster_id, event_id, type, node, props)
       VALUES ($1, $2, $3, 'STUDIO_NOTIFICATIONS_UNOBSERVED', 'a', $4)`,
      [
        minutesAgo(20),
        clusterId,
        randomUUID(),
        {
          from: minutesAgo(22).toISOString(),
          until: minutesAgo(20).toISOString(),
          reason: 'the notifier restarted',
        },
      ],
    );
    const [{ id: ruleId }] = await db.query(
      `INSERT INTO alert_rule (cluster_id, name, kind, threshold, severity, for_seconds)
       VALUES ($1, 'Orders backlog', 'queue-depth', 1000, 'critical', 300) RETURNING id`,
      [clusterId],
    );
    [{ id: alertId }] = await db.query(
      `INSERT INTO alert (cluster_id, rule_id, subject, state, value, started_at, fired_at, ended_at, end_reason, last_evaluated_at, notified)
       VALUES ($1, $2, 'orders.in', 'resolved', 5012, $3, $4, $5, 'the condition cleared', now(), true) RETURNING id`,
      [clusterId, ruleId, minutesAgo(35), minutesAgo(30), minutesAgo(10)],
    );
    const audit = (at: Date, action: string, target: string, outcome: string, detail: object) =>
      db.query(
        `INSERT INTO audit_event (at, actor_kind, actor_name, address, role, action, cluster_id, target, outcome, status, detail)
         VALUES ($1, 'user', 'alice', '10.1.2.3', 'operator', $2, $3, $4, $5, 200, $6)`,
        [at, action, clusterId, target, outcome, JSON.stringify(detail)],
      );
    await audit(minutesAgo(15), 'queue.purge', 'orders.in', 'success', {
      removed: 5012,
      filter: 'secret > 1',
    });
    await audit(minutesAgo(14), 'queue.purge', 'orders.in', 'failure', { removed: 0 });
    await audit(minutesAgo(13), 'alert-rule.test', 'Orders backlog', 'success', {});
  }, 60_000);

  afterAll(async () => {
    await Promise.all([gateway?.stop(), store?.stop()]);
    await db.query(`DELETE FROM broker_event WHERE cluster_id = $1`, [clusterId]);
    await db.query(`DELETE FROM cluster WHERE id = $1`, [clusterId]);
    await db.destroy();
  });

  it('opened from an alert, lists its moments in order, from half an hour before it to half an hour after', async () => {
    const answer = await viewer.fetch(url(`alert=${alertId}`));
    expect(answer.status).toBe(200);
    const incident: Incident = IncidentSchema.parse(await answer.json());
    expect(Date.parse(incident.from)).toBeCloseTo(minutesAgo(65).getTime(), -4);
    expect(incident.subjects).toEqual([{ kind: 'queue', name: 'orders.in' }]);
    expect(incident.moments.map((m) => [m.kind, m.text])).toEqual([
      ['event', 'CONSUMER_CLOSED on node a: queue orders.in, from 10.0.0.9'],
      ['alert', 'Orders backlog (critical): condition held'],
      ['alert', 'Orders backlog (critical) fired (threshold 1000)'],
      [
        'unobserved',
        expect.stringMatching(
          /^Notifications of node a unobserved for 120 s until .* \(the notifier restarted\)/,
        ),
      ],
      ['action', 'queue.purge of orders.in by alice (removed 5012)'],
      ['alert', 'Orders backlog (critical) resolved: the condition cleared'],
      ['event', 'CONSUMER_CREATED on node a: queue orders.in, from 10.0.0.9'],
    ]);
    expect(incident.leftOut).toEqual([]);
    // The audit row's address and the action's filter stay the administrators'.
    expect(JSON.stringify(incident)).not.toMatch(/10\.1\.2\.3|secret/);
  });

  it('over a range by hand, shows only what falls in it; a bad range is a 400 that says why', async () => {
    const incident = IncidentSchema.parse(
      await (
        await viewer.fetch(url(`from=${minutesAgo(16).toISOString()}&to=${minutesAgo(5).toISOString()}`))
      ).json(),
    );
    expect(incident.moments.map((m) => m.kind)).toEqual(['action', 'alert']);
    const backwards = await viewer.fetch(
      url(`from=${minutesAgo(5).toISOString()}&to=${minutesAgo(16).toISOString()}`),
    );
    expect(backwards.status).toBe(400);
    expect(JSON.stringify(await backwards.json())).toContain('from must be before to');
    expect((await viewer.fetch(url(`from=${minutesAgo(5).toISOString()}`))).status).toBe(400);
    expect((await viewer.fetch(url(`from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`))).status).toBe(400);
    expect((await viewer.fetch(url(`alert=${randomUUID()}`))).status).toBe(404);
  });
});
