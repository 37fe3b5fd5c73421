/** The first admin's password in every test stack (spawnService gives it to each gateway). */
export const TEST_ADMIN_PASSWORD = 'test-admin-password';

/** A signed-in client of a gateway: its session works on every replica sharing the database. */
export interface ApiSession {
  /** Cookie and the console's header, for fetch or openStream. */
  headers: Record<string, string>;
  fetch(url: string, init?: RequestInit): Promise<Response>;
}

export function sessionFrom(cookie: string): ApiSession {
  const headers = { Cookie: cookie, 'X-Studio-Request': 'test' };
  return {
    headers,
    fetch: (url, init = {}) =>
      fetch(url, {
        ...init,
        headers: { ...headers, ...(init.headers as Record<string, string> | undefined) },
      }),
  };
}

/** Signs in with a password, as the console does; fails loudly with the gateway's answer. */
export async function signIn(
  gatewayUrl: string,
  username = 'admin',
  password = TEST_ADMIN_PASSWORD,
): Promise<ApiSession> {
  const response = await fetch(`${gatewayUrl}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Studio-Request': 'test' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in as ${username} failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => /studio_session=/.test(c));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return sessionFrom(cookie);
}

/** A user with `role` on `clusters`, made by an admin session, signed in. */
export async function signInAs(
  gatewayUrl: string,
  admin: ApiSession,
  role: 'viewer' | 'operator' | 'admin',
  clusters = '*',
  username = `${role}-${Math.random().toString(36).slice(2, 10)}`,
): Promise<ApiSession & { userId: string; username: string }> {
  const password = `${username}-password`;
  const created = await admin.fetch(`${gatewayUrl}/api/v1/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ kind: 'local', username, password, role, clusters }),
  });
  if (created.status !== 201)
    throw new Error(`creating ${username} failed: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as { id: string };
  return { ...(await signIn(gatewayUrl, username, password)), userId: id, username };
}
