import {
  signIn,
  spawnService,
  startIdentityProvider,
  testDatabaseUrl,
  type ApiSession,
  type ServiceProcess,
  type TestIdentityProvider,
} from '@artemis-studio/testing';
import { createDataSource } from '@artemis-studio/db';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

const GATEWAY_PORT = 18494;
const PROVIDER_PORT = 18495;
const CALLBACK = `http://127.0.0.1:${GATEWAY_PORT}/api/v1/auth/oidc/callback`;

/** A browser's part: follows redirects across the gateway and the provider, keeping each one's cookies. */
async function browseWith(
  startUrl: string,
  /** The flow cookie the gateway set before the browser left for the provider. */
  flowCookie: string,
): Promise<{ finalLocation: string; gatewayCookies: Map<string, string> }> {
  const gateway = new Map<string, string>();
  if (flowCookie) gateway.set(flowCookie.split('=')[0]!, flowCookie.split('=').slice(1).join('='));
  const jars = new Map([[`http://127.0.0.1:${GATEWAY_PORT}`, gateway]]);
  let url = startUrl;
  for (let hop = 0; hop < 15; hop++) {
    const origin = new URL(url).origin;
    const jar = jars.get(origin) ?? new Map<string, string>();
    jars.set(origin, jar);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) jar.delete(name!.trim());
      else jar.set(name!.trim(), value.join('='));
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location)
      throw new Error(`the flow stopped at ${url}: ${response.status} ${await response.text()}`);
    const next = new URL(location, url);
    // Back on the console (not an API route): the flow is over.
    if (next.origin === `http://127.0.0.1:${GATEWAY_PORT}` && !next.pathname.startsWith('/api/'))
      return {
        finalLocation: next.pathname + next.search,
        gatewayCookies: jars.get(next.origin) ?? new Map(),
      };
    url = next.href;
  }
  throw new Error('too many redirects');
}

describe('signing in with a real OpenID provider (authorization code + PKCE)', () => {
  let provider: TestIdentityProvider;
  let gateway: ServiceProcess;
  let admin: ApiSession;
  let db: DataSource;
  const group = `ops-${randomUUID().slice(0, 8)}`;

  const sessionOf = (cookies: Map<string, string>) => {
    const session = cookies.get('studio_session');
    return session ? { Cookie: `studio_session=${session}` } : undefined;
  };
  const audited = async (username: string) =>
    db.query(
      `SELECT outcome, code FROM audit_event WHERE action = 'auth.sign-in' AND target = $1 ORDER BY seq`,
      [username],
    );

  beforeAll(async () => {
    provider = await startIdentityProvider(PROVIDER_PORT, CALLBACK);
    gateway = await spawnService('gateway', GATEWAY_PORT, {
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_REDIRECT_URL: CALLBACK,
      OIDC_SCOPES: 'openid profile',
      OIDC_NAME: 'Test IdP',
    });
    admin = await signIn(gateway.url);
    db = createDataSource({ url: testDatabaseUrl() });
    await db.initialize();
    // The identity provider's group `ops-…` holds the operator role on every cluster.
    const grant = await admin.fetch(`${gateway.url}/api/v1/grants`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ subjectKind: 'group', subject: group, role: 'operator', clusters: '*' }),
    });
    expect(grant.status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await provider?.stop();
    await db?.destroy();
  });

  it('offers the provider on the sign-in page', async () => {
    expect(await (await fetch(`${gateway.url}/api/v1/auth/config`)).json()).toEqual({
      mode: 'session',
      local: true,
      oidc: { name: 'Test IdP' },
    });
  });

  it('signs a person in through the full flow, with the role their group holds', async () => {
    const user = `alice-${randomUUID().slice(0, 6)}`;
    await provider.next(user, [group, 'unrelated']);
    const start = await fetch(`${gateway.url}/api/v1/auth/oidc/start?returnTo=/clusters`, {
      redirect: 'manual',
    });
    expect(start.status).toBe(302);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();

    const flowCookie = start.headers
      .getSetCookie()
      .find((c) => c.startsWith('studio_oidc='))!
      .split(';')[0]!;
    const { finalLocation, gatewayCookies } = await browseWith(start.headers.get('location')!, flowCookie);
    expect(finalLocation).toBe('/clusters');
    const headers = sessionOf(gatewayCookies)!;
    const me = (await (await fetch(`${gateway.url}/api/v1/auth/me`, { headers })).json()) as Record<
      string,
      unknown
    >;
    expect(me).toMatchObject({
      name: user,
      kind: 'oidc',
      via: 'session',
      groups: [group, 'unrelated'],
      grants: [{ role: 'operator', clusters: '*' }],
      administrator: false,
    });
    expect(await audited(user)).toEqual([{ outcome: 'success', code: null }]);
  });

  it.each(['forged', 'expired', 'altered'] as const)('refuses an ID token that is %s', async (tamper) => {
    const user = `mallory-${tamper}-${randomUUID().slice(0, 6)}`;
    await provider.next(user, [group], tamper);
    const start = await fetch(`${gateway.url}/api/v1/auth/oidc/start`, { redirect: 'manual' });
    const flowCookie = start.headers
      .getSetCookie()
      .find((c) => c.startsWith('studio_oidc='))!
      .split(';')[0]!;
    const { finalLocation, gatewayCookies } = await browseWith(start.headers.get('location')!, flowCookie);
    expect(finalLocation).toBe('/sign-in?error=SIGN_IN_REFUSED');
    expect(sessionOf(gatewayCookies)).toBeUndefined();
    const rows = (await db.query(
      `SELECT outcome, code FROM audit_event WHERE action = 'auth.sign-in' AND detail->>'via' = 'oidc' ORDER BY seq DESC LIMIT 1`,
    )) as { outcome: string; code: string }[];
    expect(rows).toEqual([{ outcome: 'denied', code: 'SIGN_IN_REFUSED' }]);
    await provider.next('nobody', [], 'none');
  });

  it('refuses a callback that was not started in this browser (no flow cookie)', async () => {
    await provider.next(`eve-${randomUUID().slice(0, 6)}`, [group]);
    const start = await fetch(`${gateway.url}/api/v1/auth/oidc/start`, { redirect: 'manual' });
    const { finalLocation } = await browseWith(start.headers.get('location')!, '');
    expect(finalLocation).toBe('/sign-in?error=SIGN_IN_EXPIRED');
  });
});
