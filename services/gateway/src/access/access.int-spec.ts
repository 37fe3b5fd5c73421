import { createDataSource } from '@artemis-studio/db';
import {
  openStream,
  sessionFrom,
  signIn,
  signInAs,
  spawnService,
  testBus,
  testDatabaseUrl,
  waitFor,
  TEST_ADMIN_PASSWORD,
  type ApiSession,
  type ServiceProcess,
} from '@artemis-studio/testing';
import { channels, type AuditEvent } from '@artemis-studio/contracts';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { GatewayModule } from '../app.module';
import { declaredRoutes, type DeclaredRoute } from '../http/route-catalog';
import type { Permission } from './permission';

type Role = 'viewer' | 'operator' | 'admin';
const ROLES: Role[] = ['viewer', 'operator', 'admin'];
const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** What each route is called with in the matrix; a route missing here fails the matrix. */
interface Example {
  path: string;
  init?: RequestInit;
}
/** Routes that end the session they are called with: each call gets a fresh one of the same role. */
const SESSION_ENDING = new Set(['POST /api/v1/auth/sign-out', 'POST /api/v1/auth/password']);

describe('who may see and do what, against real PostgreSQL and NATS', () => {
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let second: ServiceProcess;
  let admin: ApiSession;
  let db: DataSource;
  const bus = testBus('access-test');
  const sessions = {} as Record<Role, ApiSession & { userId: string; username: string }>;
  let clusterId: string;
  const clusterName = `matrix-${randomUUID().slice(0, 8)}`;

  const registerCluster = async (name = `c-${randomUUID().slice(0, 8)}`) => {
    const response = await admin.fetch(
      `${gateway.url}/api/v1/clusters`,
      json('POST', { name, nodes: [{ name: 'n1', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }] }),
    );
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const newUser = async () => {
    const response = await admin.fetch(
      `${gateway.url}/api/v1/users`,
      json('POST', { kind: 'service', username: `svc-${randomUUID().slice(0, 8)}` }),
    );
    return ((await response.json()) as { id: string }).id;
  };
  const newGrant = async () => {
    const response = await admin.fetch(
      `${gateway.url}/api/v1/grants`,
      json('POST', {
        subjectKind: 'group',
        subject: `g-${randomUUID().slice(0, 8)}`,
        role: 'viewer',
        clusters: '*',
      }),
    );
    return ((await response.json()) as { id: string }).id;
  };

  /** Made by the admin for a route that changes or ends one, so every role's call finds one. */
  const created = async (path: string, body: unknown) => {
    const response = await admin.fetch(
      `${gateway.url}/api/v1/clusters/${clusterId}/${path}`,
      json('POST', body),
    );
    return ((await response.json()) as { id: string }).id;
  };
  const rule = () => ({ name: `r-${randomUUID().slice(0, 8)}`, kind: 'queue-depth', threshold: 10 });
  const newRule = () => created('alert-rules', rule());
  const newSilence = () =>
    created('alert-silences', {
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'maintenance',
    });
  const receiver = () => ({
    name: `rc-${randomUUID().slice(0, 8)}`,
    kind: 'alertmanager',
    url: 'http://127.0.0.1:1',
  });
  const newReceiver = () => created('alert-receivers', receiver());

  type Caller = (ApiSession & { username?: string }) | null;
  const EXAMPLES: Record<string, (as: Caller) => Promise<Example>> = {
    'GET /api/v1/auth/config': async () => ({ path: '/api/v1/auth/config' }),
    'POST /api/v1/auth/sign-in': async () => ({
      path: '/api/v1/auth/sign-in',
      init: json('POST', { username: 'nobody', password: 'not the password' }),
    }),
    'POST /api/v1/auth/sign-out': async () => ({
      path: '/api/v1/auth/sign-out',
      init: { method: 'POST' },
    }),
    'GET /api/v1/auth/me': async () => ({ path: '/api/v1/auth/me' }),
    'POST /api/v1/auth/password': async (as) => ({
      path: '/api/v1/auth/password',
      init: json('POST', {
        currentPassword: `${as?.username}-password`,
        newPassword: 'a-brand-new-password',
      }),
    }),
    'GET /api/v1/auth/oidc/start': async () => ({ path: '/api/v1/auth/oidc/start' }),
    'GET /api/v1/auth/oidc/callback': async () => ({ path: '/api/v1/auth/oidc/callback?code=x&state=y' }),
    'GET /api/v1/users': async () => ({ path: '/api/v1/users' }),
    'POST /api/v1/users': async () => ({
      path: '/api/v1/users',
      init: json('POST', { kind: 'service', username: `svc-${randomUUID().slice(0, 8)}` }),
    }),
    'PATCH /api/v1/users/:userId': async () => ({
      path: `/api/v1/users/${await newUser()}`,
      init: json('PATCH', { disabled: true }),
    }),
    'DELETE /api/v1/users/:userId': async () => ({
      path: `/api/v1/users/${await newUser()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/grants': async () => ({ path: '/api/v1/grants' }),
    'POST /api/v1/grants': async () => ({
      path: '/api/v1/grants',
      init: json('POST', { subjectKind: 'group', subject: `g-${randomUUID().slice(0, 8)}`, role: 'viewer' }),
    }),
    'DELETE /api/v1/grants/:grantId': async () => ({
      path: `/api/v1/grants/${await newGrant()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/tokens': async () => ({ path: '/api/v1/tokens' }),
    'POST /api/v1/tokens': async () => ({
      path: '/api/v1/tokens',
      init: json('POST', { name: 'ci', role: 'viewer' }),
    }),
    'DELETE /api/v1/tokens/:tokenId': async () => ({
      path: `/api/v1/tokens/${randomUUID()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/audit': async () => ({ path: '/api/v1/audit?limit=5' }),
    'POST /api/v1/clusters': async () => ({
      path: '/api/v1/clusters',
      init: json('POST', {
        name: `m-${randomUUID().slice(0, 8)}`,
        nodes: [{ name: 'n1', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
      }),
    }),
    'GET /api/v1/clusters': async () => ({ path: '/api/v1/clusters' }),
    'GET /api/v1/clusters/:id': async () => ({ path: `/api/v1/clusters/${clusterId}` }),
    'PATCH /api/v1/clusters/:id': async () => ({
      path: `/api/v1/clusters/${await registerCluster()}`,
      init: json('PATCH', { jolokiaOrigin: 'http://127.0.0.1' }),
    }),
    'DELETE /api/v1/clusters/:id': async () => ({
      path: `/api/v1/clusters/${await registerCluster()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/topology': async () => ({ path: `/api/v1/clusters/${clusterId}/topology` }),
    'GET /api/v1/clusters/:id/queues': async () => ({ path: `/api/v1/clusters/${clusterId}/queues` }),
    'GET /api/v1/clusters/:id/events': async () => ({ path: `/api/v1/clusters/${clusterId}/events?limit=1` }),
    'GET /api/v1/clusters/:id/metrics': async () => ({ path: `/api/v1/clusters/${clusterId}/metrics` }),
    'GET /api/v1/clusters/:id/queues/growth': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/growth`,
    }),
    'GET /api/v1/clusters/:id/queues/:queue/metrics': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/metrics`,
    }),
    'GET /api/v1/clusters/:id/addresses/:address/metrics': async () => ({
      path: `/api/v1/clusters/${clusterId}/addresses/q/metrics`,
    }),
    // Refused after the guard (no Idempotency-Key, or an unknown action): acting would ask a
    // scraper this test does not run.
    'POST /api/v1/clusters/:id/queues': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues`,
      init: json('POST', { name: 'q' }),
    }),
    'POST /api/v1/clusters/:id/addresses/:address/messages': async () => ({
      path: `/api/v1/clusters/${clusterId}/addresses/a/messages`,
      init: json('POST', { body: 'hello' }),
    }),
    'POST /api/v1/clusters/:id/queues/:queue/messages': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/messages`,
      init: json('POST', { body: 'hello' }),
    }),
    'POST /api/v1/clusters/:id/addresses': async () => ({
      path: `/api/v1/clusters/${clusterId}/addresses`,
      init: json('POST', { name: 'a' }),
    }),
    'DELETE /api/v1/clusters/:id/addresses/:address': async () => ({
      path: `/api/v1/clusters/${clusterId}/addresses/a`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/queues/:queue/messages': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/messages?pageSize=0`,
    }),
    'GET /api/v1/clusters/:id/queues/:queue/impact': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/impact?action=nothing`,
    }),
    'POST /api/v1/clusters/:id/queues/:queue/pause': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/pause`,
      init: json('POST', {}),
    }),
    'POST /api/v1/clusters/:id/queues/:queue/resume': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/resume`,
      init: json('POST', {}),
    }),
    'POST /api/v1/clusters/:id/queues/:queue/purge': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/purge`,
      init: json('POST', {}),
    }),
    'POST /api/v1/clusters/:id/queues/:queue/retry': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/retry`,
      init: json('POST', {}),
    }),
    'GET /api/v1/clusters/:id/queues/:queue/messages/impact': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/messages/impact?kind=nothing`,
    }),
    // Without an Idempotency-Key each is refused before the owner is asked.
    ...Object.fromEntries(
      ['move', 'copy', 'retry', 'delete'].map((kind) => [
        `POST /api/v1/clusters/:id/queues/:queue/messages/${kind}`,
        async () => ({
          path: `/api/v1/clusters/${clusterId}/queues/q/messages/${kind}`,
          init: json('POST', { to: 'r', messageIds: ['1'], node: 'a' }),
        }),
      ]),
    ),
    'GET /api/v1/clusters/:id/queues/:queue/dead-letters': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q/dead-letters?unknown=1`,
    }),
    'GET /api/v1/clusters/:id/message-jobs': async () => ({
      path: `/api/v1/clusters/${clusterId}/message-jobs?limit=0`,
    }),
    'GET /api/v1/clusters/:id/message-jobs/:jobId': async () => ({
      path: `/api/v1/clusters/${clusterId}/message-jobs/${randomUUID()}`,
    }),
    'POST /api/v1/clusters/:id/message-jobs/:jobId/cancel': async () => ({
      path: `/api/v1/clusters/${clusterId}/message-jobs/${randomUUID()}/cancel`,
      init: json('POST', {}),
    }),
    'DELETE /api/v1/clusters/:id/queues/:queue': async () => ({
      path: `/api/v1/clusters/${clusterId}/queues/q`,
      init: { method: 'DELETE' },
    }),
    // Refused by validation, after the guard: a valid read would ask a scraper this test does not run.
    'GET /api/v1/clusters/:id/consumers': async () => ({
      path: `/api/v1/clusters/${clusterId}/consumers?page=0`,
    }),
    'GET /api/v1/clusters/:id/sessions': async () => ({
      path: `/api/v1/clusters/${clusterId}/sessions?page=0`,
    }),
    'GET /api/v1/clusters/:id/connections': async () => ({
      path: `/api/v1/clusters/${clusterId}/connections?page=0`,
    }),
    'GET /api/v1/alerts': async () => ({ path: '/api/v1/alerts' }),
    'GET /api/v1/alerts/summary': async () => ({ path: '/api/v1/alerts/summary' }),
    'GET /api/v1/clusters/:id/alerts/:alertId': async () => ({
      path: `/api/v1/clusters/${clusterId}/alerts/${randomUUID()}`,
    }),
    'GET /api/v1/clusters/:id/alert-rules': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-rules`,
    }),
    'POST /api/v1/clusters/:id/alert-rules': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-rules`,
      init: json('POST', rule()),
    }),
    // Refused by validation, after the guard: a valid rule would ask a scraper this test does not run.
    'POST /api/v1/clusters/:id/alert-rules/test': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-rules/test`,
      init: json('POST', { name: 'draft' }),
    }),
    'PUT /api/v1/clusters/:id/alert-rules/:ruleId': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-rules/${await newRule()}`,
      init: json('PUT', rule()),
    }),
    'DELETE /api/v1/clusters/:id/alert-rules/:ruleId': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-rules/${await newRule()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/alert-silences': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-silences`,
    }),
    'POST /api/v1/clusters/:id/alert-silences': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-silences`,
      init: json('POST', { endsAt: new Date(Date.now() + 3_600_000).toISOString(), reason: 'maintenance' }),
    }),
    'POST /api/v1/clusters/:id/alert-silences/:silenceId/end': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-silences/${await newSilence()}/end`,
      init: json('POST', {}),
    }),
    'GET /api/v1/clusters/:id/alert-receivers': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-receivers`,
    }),
    'POST /api/v1/clusters/:id/alert-receivers': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-receivers`,
      init: json('POST', receiver()),
    }),
    'PUT /api/v1/clusters/:id/alert-receivers/:receiverId': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-receivers/${await newReceiver()}`,
      init: json('PUT', receiver()),
    }),
    'DELETE /api/v1/clusters/:id/alert-receivers/:receiverId': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-receivers/${await newReceiver()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/alert-deliveries': async () => ({
      path: `/api/v1/clusters/${clusterId}/alert-deliveries`,
    }),
    'GET /api/v1/settings': async () => ({ path: '/api/v1/settings' }),
    'GET /api/v1/settings/:key': async () => ({ path: '/api/v1/settings/artemis-studio.events.flush' }),
    'PUT /api/v1/settings/:key': async () => ({
      path: '/api/v1/settings/artemis-studio.events.flush',
      init: json('PUT', { value: 1000 }),
    }),
    'GET /api/v1/stream': async () => ({ path: `/api/v1/stream?clusterId=${clusterId}` }),
    'GET /api/v1/openapi.json': async () => ({ path: '/api/v1/openapi.json' }),
  };

  /** One request, with a stream's body abandoned once its status is known. */
  const call = async (route: DeclaredRoute, as: Caller, base = gateway.url) => {
    const example = await EXAMPLES[`${route.method} ${route.path}`]!(as);
    const abort = new AbortController();
    const init = { ...example.init, redirect: 'manual' as const, signal: abort.signal };
    const response = as
      ? await as.fetch(`${base}${example.path}`, init)
      : await fetch(`${base}${example.path}`, init);
    abort.abort();
    return { status: response.status, requestId: response.headers.get('x-request-id') };
  };
  const auditRows = (requestId: string | null): Promise<AuditEvent[]> =>
    db.query(
      `SELECT outcome, actor_name AS "actorName", status, action FROM audit_event WHERE request_id = $1`,
      [requestId],
    );
  const allowed = (permission: Permission, role: Role): boolean =>
    permission.kind === 'public' ||
    permission.kind === 'signed-in' ||
    (permission.kind === 'administrator' && role === 'admin') ||
    (permission.kind === 'cluster' && RANK[role] >= RANK[permission.role]);

  const routes = declaredRoutes(GatewayModule).filter((r) => r.permission !== 'operational');
  /** Credentials the tests send; none may appear in a log line. */
  const planted: string[] = [TEST_ADMIN_PASSWORD];

  beforeAll(async () => {
    db = createDataSource({ url: testDatabaseUrl() });
    await bus.ready();
    // Every request logged, so the secrets check below reads the most the logs could hold.
    gateway = await spawnService('gateway', 18491, { LOG_LEVEL: 'debug' });
    second = await spawnService('gateway', 18492, { LOG_LEVEL: 'debug' });
    processes.push(gateway, second, await spawnService('event-store', 18493));
    await db.initialize();
    admin = await signIn(gateway.url);
    clusterId = await registerCluster(clusterName);
    for (const role of ROLES) sessions[role] = await signInAs(gateway.url, admin, role);
  }, 90_000);

  afterAll(async () => {
    await admin?.fetch(
      `${gateway.url}/api/v1/settings/artemis-studio.events.flush`,
      json('PUT', { value: 1000 }),
    );
    await Promise.all(processes.map((p) => p.stop()));
    await db?.destroy();
    await bus.close();
  });

  it('has an example for every route, so the matrix covers them all', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`).filter((key) => !EXAMPLES[key])).toEqual([]);
  });

  it('answers 401 to every route without credentials, but the sign-in routes and health', async () => {
    for (const route of routes) {
      const { status } = await call(route, null);
      // A public route answers on its own terms (a wrong password is a 401 too), never a 5xx.
      const isPublic = (route.permission as Permission).kind === 'public';
      expect({ route: `${route.method} ${route.path}`, status: isPublic ? status < 500 : status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: isPublic ? true : 401,
      });
    }
    for (const path of ['/healthz', '/readyz', '/metrics'])
      expect((await fetch(`${gateway.url}${path}`)).status).toBe(200);
  });

  it('lets each role through exactly the routes its role allows, auditing each change once', async () => {
    const seen: string[] = [];
    for (const route of routes) {
      const permission = route.permission as Permission;
      if (permission.kind === 'public') continue;
      for (const role of ROLES) {
        const ends = SESSION_ENDING.has(`${route.method} ${route.path}`);
        const as = ends ? await signInAs(gateway.url, admin, role) : sessions[role];
        const { status, requestId } = await call(route, as);
        const expectAllowed = allowed(permission, role);
        const key = `${role} ${route.method} ${route.path}`;
        expect({
          key,
          status: expectAllowed ? status !== 401 && status !== 403 && status < 500 : status,
        }).toEqual({
          key,
          status: expectAllowed ? true : 403,
        });
        if (route.auditAction) {
          const rows = await auditRows(requestId);
          expect({
            key,
            rows: rows.length,
            action: rows[0]?.action,
            actor: (rows[0] as unknown as { actorName: string })?.actorName,
          }).toEqual({
            key,
            rows: 1,
            action: route.auditAction,
            actor: as === sessions[role] ? sessions[role].username : expect.any(String),
          });
          expect(rows[0]!.outcome).toBe(expectAllowed ? (status < 400 ? 'success' : 'failure') : 'denied');
        }
        seen.push(key);
      }
    }
    expect(seen.length).toBeGreaterThan(60);
  }, 120_000);

  it('audits a change that fails, once, with its failure', async () => {
    const response = await admin.fetch(
      `${gateway.url}/api/v1/clusters`,
      json('POST', { name: clusterName, nodes: [{ name: 'n1', jolokiaUrl: 'http://127.0.0.1:1/' }] }),
    );
    expect(response.status).toBe(409);
    const rows = await db.query(
      `SELECT outcome, status, code, actor_name FROM audit_event WHERE request_id = $1`,
      [response.headers.get('x-request-id')],
    );
    expect(rows).toEqual([
      { outcome: 'failure', status: 409, code: 'CLUSTER_NAME_TAKEN', actor_name: 'admin' },
    ]);
  });

  it('publishes each audit row on the bus for other tools', async () => {
    const received: AuditEvent[] = [];
    const unsubscribe = bus.subscribe(channels.audit, 'studio.v1.audit.setting.>', (e) => {
      received.push(e);
    });
    await new Promise((r) => setTimeout(r, 200));
    const response = await admin.fetch(
      `${gateway.url}/api/v1/settings/artemis-studio.events.flush`,
      json('PUT', { value: 1000 }),
    );
    const requestId = response.headers.get('x-request-id');
    const event = await waitFor('the audit event', () => received.find((e) => e.requestId === requestId));
    expect(event).toMatchObject({
      action: 'setting.update',
      outcome: 'success',
      actor: { name: 'admin' },
      role: 'admin',
    });
    unsubscribe();
  });

  it('keeps the audit trail append-only', async () => {
    await expect(db.query(`UPDATE audit_event SET outcome = 'success'`)).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM audit_event`)).rejects.toThrow(/append-only/);
  });

  it('narrows what a scoped grant sees and may change to its clusters', async () => {
    const prodId = await registerCluster(`prod-${randomUUID().slice(0, 8)}`);
    const scoped = await signInAs(gateway.url, admin, 'admin', 'prod-*');
    const names = (
      (await (await scoped.fetch(`${gateway.url}/api/v1/clusters`)).json()) as { id: string }[]
    ).map((c) => c.id);
    expect(names).toEqual([prodId]);
    expect((await scoped.fetch(`${gateway.url}/api/v1/clusters/${clusterId}`)).status).toBe(403);
    expect((await scoped.fetch(`${gateway.url}/api/v1/clusters/${prodId}/topology`)).status).toBe(200);
    // Not an administrator of everything: no settings, no users; no renaming a cluster out of reach.
    expect((await scoped.fetch(`${gateway.url}/api/v1/users`)).status).toBe(403);
    expect(
      (await scoped.fetch(`${gateway.url}/api/v1/clusters/${prodId}`, json('PATCH', { name: 'elsewhere' })))
        .status,
    ).toBe(403);
    const created = await scoped.fetch(
      `${gateway.url}/api/v1/clusters`,
      json('POST', { name: 'staging-x', nodes: [{ name: 'n1', jolokiaUrl: 'http://127.0.0.1:1/' }] }),
    );
    expect(created.status).toBe(403);
  });

  it('honours a session made on one replica on the other, and ends it on both at sign-out', async () => {
    const viewer = await signInAs(gateway.url, admin, 'viewer');
    expect((await viewer.fetch(`${second.url}/api/v1/auth/me`)).status).toBe(200);
    const streams = await Promise.all(
      [gateway, second].map((g) =>
        openStream(`${g.url}/api/v1/stream?clusterId=${clusterId}`, viewer.headers),
      ),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const signedOut = Date.now();
    expect((await viewer.fetch(`${second.url}/api/v1/auth/sign-out`, { method: 'POST' })).status).toBe(204);
    await waitFor('both streams ended', () => streams.every((s) => s.ended()), { timeoutMs: 5000 });
    expect(Date.now() - signedOut).toBeLessThan(5000);
    expect((await viewer.fetch(`${gateway.url}/api/v1/auth/me`)).status).toBe(401);
  });

  it('serves an API token on every replica, capped by its role, and ends its streams within 5 s of revocation', async () => {
    const created = await admin.fetch(
      `${gateway.url}/api/v1/tokens`,
      json('POST', { name: 'ci', role: 'viewer' }),
    );
    expect(created.status).toBe(201);
    const { token, secret } = (await created.json()) as { token: { id: string }; secret: string };
    planted.push(secret);
    expect(secret).toMatch(/^sst_/);
    // Listed, but never again with its secret.
    expect(await (await admin.fetch(`${gateway.url}/api/v1/tokens`)).text()).not.toContain(secret);
    const bearer = { Authorization: `Bearer ${secret}` };
    expect((await fetch(`${second.url}/api/v1/clusters/${clusterId}`, { headers: bearer })).status).toBe(200);
    // An admin's viewer token is a viewer: no settings change, and no CSRF header needed to be told so.
    expect(
      (
        await fetch(`${gateway.url}/api/v1/settings/artemis-studio.events.flush`, {
          ...json('PUT', { value: 1000 }),
          headers: { ...bearer, 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(403);
    const streams = await Promise.all(
      [gateway, second].map((g) => openStream(`${g.url}/api/v1/stream?clusterId=${clusterId}`, bearer)),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const revoked = Date.now();
    expect((await admin.fetch(`${gateway.url}/api/v1/tokens/${token.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await waitFor('both streams ended', () => streams.every((s) => s.ended()), { timeoutMs: 5000 });
    expect(Date.now() - revoked).toBeLessThan(5000);
    expect((await fetch(`${second.url}/api/v1/clusters/${clusterId}`, { headers: bearer })).status).toBe(401);
  });

  it('refuses a cross-origin form post, and changes nothing', async () => {
    const cookie = admin.headers.Cookie!;
    const response = await fetch(`${gateway.url}/api/v1/settings/artemis-studio.events.flush`, {
      method: 'PUT',
      headers: {
        Cookie: cookie,
        Origin: 'https://evil.example',
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'value=99',
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('CROSS_SITE_REFUSED');
    // Same origin but no console header: a plain HTML form cannot add one.
    const form = await fetch(`${gateway.url}/api/v1/clusters`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: gateway.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'csrf', nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/' }] }),
    });
    expect(form.status).toBe(403);
    const setting = (await (
      await admin.fetch(`${gateway.url}/api/v1/settings/artemis-studio.events.flush`)
    ).json()) as { value: number };
    expect(setting.value).toBe(1000);
    const clusters = (await (await admin.fetch(`${gateway.url}/api/v1/clusters`)).json()) as {
      name: string;
    }[];
    expect(clusters.map((c) => c.name)).not.toContain('csrf');
  });

  it('refuses the 11th bad password in a minute, even the right one, and audits every attempt', async () => {
    const target = await signInAs(gateway.url, admin, 'viewer');
    const attempt = (password: string) =>
      sessionFrom('').fetch(
        `${second.url}/api/v1/auth/sign-in`,
        json('POST', { username: target.username, password }),
      );
    for (let i = 0; i < 10; i++) expect((await attempt(`wrong-${i}`)).status).toBe(401);
    const eleventh = await attempt(`${target.username}-password`);
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toBe('60');
    const rows: { outcome: string; n: number }[] = await db.query(
      `SELECT outcome, count(*)::int AS n FROM audit_event WHERE action = 'auth.sign-in' AND target = $1
       AND status <> 200 GROUP BY outcome ORDER BY outcome`,
      [target.username],
    );
    expect(rows).toEqual([{ outcome: 'denied', n: 11 }]);
  });

  it('reaps audit rows past the retention at start, and only those', async () => {
    const [old] = await db.query(
      `INSERT INTO audit_event (at, actor_kind, actor_name, action, outcome, status)
       VALUES (now() - interval '400 days', 'local', 'history', 'cluster.create', 'success', 201) RETURNING seq`,
    );
    const [recent] = await db.query(
      `INSERT INTO audit_event (at, actor_kind, actor_name, action, outcome, status)
       VALUES (now() - interval '300 days', 'local', 'history', 'cluster.create', 'success', 201) RETURNING seq`,
    );
    // A replica started in development mode: no sign-in, everyone an administrator, and it says so.
    const open = await spawnService('gateway', 18496, { AUTH_MODE: 'none', OPERATIONAL_PORT: '18497' });
    try {
      expect(await (await fetch(`${open.url}/api/v1/auth/config`)).json()).toMatchObject({ mode: 'none' });
      expect((await fetch(`${open.url}/api/v1/clusters/${clusterId}`)).status).toBe(200);
      expect(open.output()).toContain('AUTH_MODE=none');
      // Health and metrics on their own port, and only there: the public port never shows them.
      expect((await fetch(`${open.url}/metrics`)).status).toBe(404);
      expect((await fetch('http://127.0.0.1:18497/metrics')).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:18497/api/v1/clusters/${clusterId}`)).status).toBe(404);
      const left = async () =>
        (await db.query(`SELECT seq FROM audit_event WHERE seq = ANY($1)`, [[old.seq, recent.seq]])).map(
          (r: { seq: string }) => Number(r.seq),
        );
      await waitFor('the old row reaped', async () => (await left()).length === 1);
      expect(await left()).toEqual([Number(recent.seq)]);
    } finally {
      await open.stop();
    }
  });

  it('lets a user change their own password, proving the current one, and ends their sessions', async () => {
    const user = await signInAs(gateway.url, admin, 'viewer');
    const other = await signIn(second.url, user.username, `${user.username}-password`);
    const change = (currentPassword: string) =>
      user.fetch(
        `${gateway.url}/api/v1/auth/password`,
        json('POST', { currentPassword, newPassword: 'a-better-password' }),
      );
    expect((await change('a wrong guess')).status).toBe(403);
    expect((await change(`${user.username}-password`)).status).toBe(204);
    expect((await other.fetch(`${second.url}/api/v1/auth/me`)).status).toBe(401);
    await expect(signIn(gateway.url, user.username, `${user.username}-password`)).rejects.toThrow(/401/);
    await signIn(gateway.url, user.username, 'a-better-password');
  });

  it('logs JSON lines, each request with its id, and no credential in any of them', async () => {
    for (const session of [admin, ...Object.values(sessions)])
      planted.push(
        session.headers.Cookie!.split('=')[1]!,
        ...('username' in session ? [`${session.username}-password`] : []),
      );
    const lines = [gateway, second].flatMap((g) => g.output().split('\n').filter(Boolean));
    const records = lines.map(
      (line) => JSON.parse(line) as { level: string; req?: unknown; requestId?: string },
    );
    const requests = records.filter((r) => r.req);
    expect(requests.length).toBeGreaterThan(100);
    expect(requests.filter((r) => !r.requestId)).toEqual([]);
    for (const secret of planted) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  });

  it('keeps secrets out of answers and the audit trail', async () => {
    const users = await (await admin.fetch(`${gateway.url}/api/v1/users`)).text();
    expect(users).not.toMatch(/scrypt|password/i);
    const trail = JSON.stringify(await db.query(`SELECT * FROM audit_event`));
    expect(trail).not.toContain('-password"');
    expect(trail).not.toContain('test-admin-password');
  });
});
