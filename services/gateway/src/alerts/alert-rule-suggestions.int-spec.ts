import {
  SUGGESTED_ALERT_RULES,
  SavedSuggestedAlertRulesSchema,
  SuggestedAlertRulesSchema,
} from '@artemis-studio/contracts';
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

/** Suggested rules through the API (issue 61), against real PostgreSQL: offered, saved once, audited. */
describe('suggested alert rules', () => {
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
    gateway = await spawnService('gateway', 18591);
    admin = await signIn(gateway.url);
    viewer = await signInAs(gateway.url, admin, 'viewer');
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await db.query(`DELETE FROM cluster WHERE id = $1`, [clusterId]);
    await db.destroy();
  });

  it('offers the suggested rules through the API, saves the chosen ones once, and leaves a saved one as it is', async () => {
    const suggested = SuggestedAlertRulesSchema.parse(
      await (await viewer.fetch(url('alert-rules/suggested'))).json(),
    );
    const names = suggested.items.map((s) => s.rule.name);
    expect(names).toEqual(SUGGESTED_ALERT_RULES.map((r) => r.name));
    // Each as it would be saved: its defaults filled in, none saved yet.
    expect(suggested.items.find((s) => s.rule.name === 'Node unreachable')).toEqual({
      rule: expect.objectContaining({ kind: 'node-unreachable', forSeconds: 60, enabled: true, labels: {} }),
      saved: false,
    });

    const chosen = ['Node unreachable', 'Stuck consumer'];
    expect((await viewer.fetch(url('alert-rules/suggested'), json('POST', { names: chosen }))).status).toBe(
      403,
    );
    const unknown = await admin.fetch(
      url('alert-rules/suggested'),
      json('POST', { names: ['Anything at all'] }),
    );
    expect(unknown.status).toBe(400);
    const first = await admin.fetch(url('alert-rules/suggested'), json('POST', { names: chosen }));
    expect(first.status).toBe(201);
    const saved = SavedSuggestedAlertRulesSchema.parse(await first.json());
    expect(saved.created.map((r) => r.name)).toEqual(chosen);
    expect(saved.alreadySaved).toEqual([]);

    // One of them changed since: asked again, it is left as it is, and the new one is saved.
    const stuck = saved.created.find((r) => r.name === 'Stuck consumer')!;
    const changed = { name: stuck.name, kind: stuck.kind, forSeconds: 900 };
    expect((await admin.fetch(url(`alert-rules/${stuck.id}`), json('PUT', changed))).status).toBe(200);
    const again = SavedSuggestedAlertRulesSchema.parse(
      await (
        await admin.fetch(
          url('alert-rules/suggested'),
          json('POST', { names: ['Stuck consumer', 'Cluster link down'] }),
        )
      ).json(),
    );
    expect(again.created.map((r) => r.name)).toEqual(['Cluster link down']);
    expect(again.alreadySaved).toEqual(['Stuck consumer']);
    const rules = (await (await admin.fetch(url('alert-rules'))).json()) as {
      items: { name: string; forSeconds: number | null }[];
    };
    expect(rules.items.find((r) => r.name === 'Stuck consumer')?.forSeconds).toBe(900);
    const after = SuggestedAlertRulesSchema.parse(
      await (await viewer.fetch(url('alert-rules/suggested'))).json(),
    );
    expect(after.items.filter((s) => s.saved).map((s) => s.rule.name)).toEqual(
      ['Stuck consumer', 'Cluster link down', 'Node unreachable'].sort(
        (a, b) => names.indexOf(a) - names.indexOf(b),
      ),
    );
    // Each request is one audit row, naming what it saved.
    const audit = await db.query(
      `SELECT detail FROM audit_event WHERE action = 'alert-rule.create-suggested' AND cluster_id = $1 AND outcome = 'success' ORDER BY seq`,
      [clusterId],
    );
    expect(audit.map((a: { detail: { alreadySaved: string[] } }) => a.detail.alreadySaved)).toEqual([
      [],
      ['Stuck consumer'],
    ]);
  });
});
