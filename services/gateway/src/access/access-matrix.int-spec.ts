import { channels, type AuditEvent } from '@artemis-studio/contracts';
import { signInAs, waitFor } from '@artemis-studio/testing';
import { GatewayModule } from '../app.module';
import { declaredRoutes } from '../http/route-catalog';
import { call, routeExamples, type Examples } from './access-examples.fixture';
import { AccessStack, json, ROLES, type Role } from './access-stack.fixture';
import type { Permission } from './permission';

const RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };
/** Routes that end the session they are called with: each call gets a fresh one of the same role. */
const SESSION_ENDING = new Set(['POST /api/v1/auth/sign-out', 'POST /api/v1/auth/password']);

const allowed = (permission: Permission, role: Role): boolean =>
  permission.kind === 'public' ||
  permission.kind === 'signed-in' ||
  (permission.kind === 'administrator' && role === 'admin') ||
  (permission.kind === 'cluster' && RANK[role] >= RANK[permission.role]);

describe('who may see and do what: every route, every role, against real PostgreSQL and NATS', () => {
  const stack = new AccessStack({ gateway: 18491, second: 18492, eventStore: 18493 });
  const routes = declaredRoutes(GatewayModule).filter((r) => r.permission !== 'operational');
  let examples: Examples;
  const auditRows = (requestId: string | null): Promise<AuditEvent[]> =>
    stack.db.query(
      `SELECT outcome, actor_name AS "actorName", status, action FROM audit_event WHERE request_id = $1`,
      [requestId],
    );

  beforeAll(async () => {
    await stack.start();
    examples = routeExamples(stack);
  }, 90_000);
  afterAll(() => stack.stop());

  it('has an example for every route, so the matrix covers them all', () => {
    expect(routes.map((r) => `${r.method} ${r.path}`).filter((key) => !examples[key])).toEqual([]);
  });

  it('answers 401 to every route without credentials, but the sign-in routes and health', async () => {
    for (const route of routes) {
      const { status } = await call(examples, route, null, stack.gateway.url);
      // A public route answers on its own terms (a wrong password is a 401 too), never a 5xx.
      const isPublic = (route.permission as Permission).kind === 'public';
      expect({ route: `${route.method} ${route.path}`, status: isPublic ? status < 500 : status }).toEqual({
        route: `${route.method} ${route.path}`,
        status: isPublic ? true : 401,
      });
    }
    for (const path of ['/healthz', '/readyz', '/metrics'])
      expect((await fetch(`${stack.gateway.url}${path}`)).status).toBe(200);
  });

  it('lets each role through exactly the routes its role allows, auditing each change once', async () => {
    const seen: string[] = [];
    for (const route of routes) {
      const permission = route.permission as Permission;
      if (permission.kind === 'public') continue;
      for (const role of ROLES) {
        const ends = SESSION_ENDING.has(`${route.method} ${route.path}`);
        const as = ends ? await signInAs(stack.gateway.url, stack.admin, role) : stack.sessions[role];
        const { status, requestId } = await call(examples, route, as, stack.gateway.url);
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
            actor: as === stack.sessions[role] ? stack.sessions[role].username : expect.any(String),
          });
          expect(rows[0]!.outcome).toBe(expectAllowed ? (status < 400 ? 'success' : 'failure') : 'denied');
        }
        seen.push(key);
      }
    }
    expect(seen.length).toBeGreaterThan(60);
  }, 120_000);

  it('audits a change that fails, once, with its failure', async () => {
    const response = await stack.admin.fetch(
      `${stack.gateway.url}/api/v1/clusters`,
      json('POST', { name: stack.clusterName, nodes: [{ name: 'n1', jolokiaUrl: 'http://127.0.0.1:1/' }] }),
    );
    expect(response.status).toBe(409);
    const rows = await stack.db.query(
      `SELECT outcome, status, code, actor_name FROM audit_event WHERE request_id = $1`,
      [response.headers.get('x-request-id')],
    );
    expect(rows).toEqual([
      { outcome: 'failure', status: 409, code: 'CLUSTER_NAME_TAKEN', actor_name: 'admin' },
    ]);
  });

  it('publishes each audit row on the bus for other tools', async () => {
    const received: AuditEvent[] = [];
    const unsubscribe = stack.bus.subscribe(channels.audit, 'studio.v1.audit.setting.>', (e) => {
      received.push(e);
    });
    await new Promise((r) => setTimeout(r, 200));
    const response = await stack.admin.fetch(
      `${stack.gateway.url}/api/v1/settings/artemis-studio.events.flush`,
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
    await expect(stack.db.query(`UPDATE audit_event SET outcome = 'success'`)).rejects.toThrow(/append-only/);
    await expect(stack.db.query(`DELETE FROM audit_event`)).rejects.toThrow(/append-only/);
  });

  it('logs JSON lines, each request with its id, and no credential in any of them', () => {
    stack.expectLogsWithoutCredentials(100);
  });

  it('keeps secrets out of answers and the audit trail', async () => {
    const users = await (await stack.admin.fetch(`${stack.gateway.url}/api/v1/users`)).text();
    expect(users).not.toMatch(/scrypt|password/i);
    const trail = JSON.stringify(await stack.db.query(`SELECT * FROM audit_event`));
    expect(trail).not.toContain('-password"');
    expect(trail).not.toContain('test-admin-password');
  });
});
