import { openStream, sessionFrom, signIn, signInAs, spawnService, waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { AccessStack, json } from './access-stack.fixture';

describe('sessions, tokens and sign-in across replicas, against real PostgreSQL and NATS', () => {
  const stack = new AccessStack({ gateway: 18471, second: 18472, eventStore: 18473 });

  beforeAll(() => stack.start(), 90_000);
  afterAll(() => stack.stop());

  it('narrows what a scoped grant sees and may change to its clusters', async () => {
    const prodId = await stack.registerCluster(`prod-${randomUUID().slice(0, 8)}`);
    const scoped = await signInAs(stack.gateway.url, stack.admin, 'admin', 'prod-*');
    const names = (
      (await (await scoped.fetch(`${stack.gateway.url}/api/v1/clusters`)).json()) as { id: string }[]
    ).map((c) => c.id);
    expect(names).toEqual([prodId]);
    expect((await scoped.fetch(`${stack.gateway.url}/api/v1/clusters/${stack.clusterId}`)).status).toBe(403);
    expect((await scoped.fetch(`${stack.gateway.url}/api/v1/clusters/${prodId}/topology`)).status).toBe(200);
    // Not an administrator of everything: no settings, no users; no renaming a cluster out of reach.
    expect((await scoped.fetch(`${stack.gateway.url}/api/v1/users`)).status).toBe(403);
    expect(
      (
        await scoped.fetch(
          `${stack.gateway.url}/api/v1/clusters/${prodId}`,
          json('PATCH', { name: 'elsewhere' }),
        )
      ).status,
    ).toBe(403);
    const created = await scoped.fetch(
      `${stack.gateway.url}/api/v1/clusters`,
      json('POST', { name: 'staging-x', nodes: [{ name: 'n1', jolokiaUrl: 'http://127.0.0.1:1/' }] }),
    );
    expect(created.status).toBe(403);
  });

  it('honours a session made on one replica on the other, and ends it on both at sign-out', async () => {
    const viewer = await signInAs(stack.gateway.url, stack.admin, 'viewer');
    expect((await viewer.fetch(`${stack.second.url}/api/v1/auth/me`)).status).toBe(200);
    const streams = await Promise.all(
      [stack.gateway, stack.second].map((g) =>
        openStream(`${g.url}/api/v1/stream?clusterId=${stack.clusterId}`, viewer.headers),
      ),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const signedOut = Date.now();
    expect((await viewer.fetch(`${stack.second.url}/api/v1/auth/sign-out`, { method: 'POST' })).status).toBe(
      204,
    );
    await waitFor('both streams ended', () => streams.every((s) => s.ended()), { timeoutMs: 5000 });
    expect(Date.now() - signedOut).toBeLessThan(5000);
    expect((await viewer.fetch(`${stack.gateway.url}/api/v1/auth/me`)).status).toBe(401);
  });

  it('serves an API token on every replica, capped by its role, and ends its streams within 5 s of revocation', async () => {
    const created = await stack.admin.fetch(
      `${stack.gateway.url}/api/v1/tokens`,
      json('POST', { name: 'ci', role: 'viewer' }),
    );
    expect(created.status).toBe(201);
    const { token, secret } = (await created.json()) as { token: { id: string }; secret: string };
    stack.planted.push(secret);
    expect(secret).toMatch(/^sst_/);
    // Listed, but never again with its secret.
    expect(await (await stack.admin.fetch(`${stack.gateway.url}/api/v1/tokens`)).text()).not.toContain(
      secret,
    );
    const bearer = { Authorization: `Bearer ${secret}` };
    expect(
      (await fetch(`${stack.second.url}/api/v1/clusters/${stack.clusterId}`, { headers: bearer })).status,
    ).toBe(200);
    // An stack.admin's viewer token is a viewer: no settings change, and no CSRF header needed to be told so.
    expect(
      (
        await fetch(`${stack.gateway.url}/api/v1/settings/artemis-studio.events.flush`, {
          ...json('PUT', { value: 1000 }),
          headers: { ...bearer, 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(403);
    const streams = await Promise.all(
      [stack.gateway, stack.second].map((g) =>
        openStream(`${g.url}/api/v1/stream?clusterId=${stack.clusterId}`, bearer),
      ),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const revoked = Date.now();
    expect(
      (await stack.admin.fetch(`${stack.gateway.url}/api/v1/tokens/${token.id}`, { method: 'DELETE' }))
        .status,
    ).toBe(204);
    await waitFor('both streams ended', () => streams.every((s) => s.ended()), { timeoutMs: 5000 });
    expect(Date.now() - revoked).toBeLessThan(5000);
    expect(
      (await fetch(`${stack.second.url}/api/v1/clusters/${stack.clusterId}`, { headers: bearer })).status,
    ).toBe(401);
  });

  it('refuses a cross-origin form post, and changes nothing', async () => {
    const cookie = stack.admin.headers.Cookie!;
    const response = await fetch(`${stack.gateway.url}/api/v1/settings/artemis-studio.events.flush`, {
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
    const form = await fetch(`${stack.gateway.url}/api/v1/clusters`, {
      method: 'POST',
      headers: { Cookie: cookie, Origin: stack.gateway.url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'csrf', nodes: [{ name: 'n', jolokiaUrl: 'http://127.0.0.1:1/' }] }),
    });
    expect(form.status).toBe(403);
    const setting = (await (
      await stack.admin.fetch(`${stack.gateway.url}/api/v1/settings/artemis-studio.events.flush`)
    ).json()) as { value: number };
    expect(setting.value).toBe(1000);
    const clusters = (await (await stack.admin.fetch(`${stack.gateway.url}/api/v1/clusters`)).json()) as {
      name: string;
    }[];
    expect(clusters.map((c) => c.name)).not.toContain('csrf');
  });

  it('refuses the 11th bad password in a minute, even the right one, and audits every attempt', async () => {
    const target = await signInAs(stack.gateway.url, stack.admin, 'viewer');
    const attempt = (password: string) =>
      sessionFrom('').fetch(
        `${stack.second.url}/api/v1/auth/sign-in`,
        json('POST', { username: target.username, password }),
      );
    for (let i = 0; i < 10; i++) expect((await attempt(`wrong-${i}`)).status).toBe(401);
    const eleventh = await attempt(`${target.username}-password`);
    expect(eleventh.status).toBe(429);
    expect(eleventh.headers.get('retry-after')).toBe('60');
    const rows: { outcome: string; n: number }[] = await stack.db.query(
      `SELECT outcome, count(*)::int AS n FROM audit_event WHERE action = 'auth.sign-in' AND target = $1
       AND status <> 200 GROUP BY outcome ORDER BY outcome`,
      [target.username],
    );
    expect(rows).toEqual([{ outcome: 'denied', n: 11 }]);
  });

  it('reaps audit rows past the retention at start, and only those', async () => {
    const [old] = await stack.db.query(
      `INSERT INTO audit_event (at, actor_kind, actor_name, action, outcome, status)
       VALUES (now() - interval '400 days', 'local', 'history', 'cluster.create', 'success', 201) RETURNING seq`,
    );
    const [recent] = await stack.db.query(
      `INSERT INTO audit_event (at, actor_kind, actor_name, action, outcome, status)
       VALUES (now() - interval '300 days', 'local', 'history', 'cluster.create', 'success', 201) RETURNING seq`,
    );
    // A replica started in development mode: no sign-in, everyone an administrator, and it says so.
    const open = await spawnService('gateway', 18496, { AUTH_MODE: 'none', OPERATIONAL_PORT: '18497' });
    try {
      expect(await (await fetch(`${open.url}/api/v1/auth/config`)).json()).toMatchObject({ mode: 'none' });
      expect((await fetch(`${open.url}/api/v1/clusters/${stack.clusterId}`)).status).toBe(200);
      expect(open.output()).toContain('AUTH_MODE=none');
      // Health and metrics on their own port, and only there: the public port never shows them.
      expect((await fetch(`${open.url}/metrics`)).status).toBe(404);
      expect((await fetch('http://127.0.0.1:18497/metrics')).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:18497/api/v1/clusters/${stack.clusterId}`)).status).toBe(404);
      const left = async () =>
        (
          await stack.db.query(`SELECT seq FROM audit_event WHERE seq = ANY($1)`, [[old.seq, recent.seq]])
        ).map((r: { seq: string }) => Number(r.seq));
      await waitFor('the old row reaped', async () => (await left()).length === 1);
      expect(await left()).toEqual([Number(recent.seq)]);
    } finally {
      await open.stop();
    }
  });

  it('lets a user change their own password, proving the current one, and ends their sessions', async () => {
    const user = await signInAs(stack.gateway.url, stack.admin, 'viewer');
    const other = await signIn(stack.second.url, user.username, `${user.username}-password`);
    const change = (currentPassword: string) =>
      user.fetch(
        `${stack.gateway.url}/api/v1/auth/password`,
        json('POST', { currentPassword, newPassword: 'a-better-password' }),
      );
    expect((await change('a wrong guess')).status).toBe(403);
    expect((await change(`${user.username}-password`)).status).toBe(204);
    expect((await other.fetch(`${stack.second.url}/api/v1/auth/me`)).status).toBe(401);
    await expect(signIn(stack.gateway.url, user.username, `${user.username}-password`)).rejects.toThrow(
      /401/,
    );
    await signIn(stack.gateway.url, user.username, 'a-better-password');
  });

  it('logs JSON lines, each request with its id, and no credential in any of them', () => {
    stack.expectLogsWithoutCredentials(20);
  });

  it('keeps secrets out of answers and the audit trail', async () => {
    const users = await (await stack.admin.fetch(`${stack.gateway.url}/api/v1/users`)).text();
    expect(users).not.toMatch(/scrypt|password/i);
    const trail = JSON.stringify(await stack.db.query(`SELECT * FROM audit_event`));
    expect(trail).not.toContain('-password"');
    expect(trail).not.toContain('test-admin-password');
  });
});
