import type { BrokerProfile } from './broker';
import { waitFor } from './wait';
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

/**
 * Registers the profile's first broker node through the gateway's API, as an administrator does,
 * and waits until the cluster's scraper has seen it live (actions and live reads need a live
 * node). `amqp` adds the node's AMQP URL, for the notifier, and waits until it has subscribed.
 * Answers the cluster's id.
 */
export async function registerLiveBroker(
  gatewayUrl: string,
  admin: ApiSession,
  broker: BrokerProfile,
  {
    name,
    amqp = false,
    notifications = amqp,
  }: {
    name: string;
    amqp?: boolean;
    /** Wait for the notifier's subscription (its AMQP URL given): false in a stack with no notifier. */
    notifications?: boolean;
  },
): Promise<string> {
  const node = broker.nodes[0];
  const registered = await admin.fetch(`${gatewayUrl}/api/v1/clusters`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name,
      nodes: [{ name: node.name, jolokiaUrl: node.jolokiaUrl, ...(amqp ? { amqpUrl: node.amqpUrl } : {}) }],
      credentials: { jolokia: { username: broker.user, password: broker.password } },
    }),
  });
  const clusterId = ((await registered.json()) as { id: string }).id;
  await waitFor('the scraper to see the node live', async () => {
    const topology = (await (
      await admin.fetch(`${gatewayUrl}/api/v1/clusters/${clusterId}/topology`)
    ).json()) as { nodes: { role: string }[] };
    return topology.nodes[0]?.role === 'live';
  });
  // The notifier subscribes on its own time, after the scraper's first live-node set: an event of
  // the broker before that is never seen (a test that deletes a queue and then looks for it in the
  // feed failed now and then in CI when it acted first).
  if (amqp && notifications)
    await waitFor('the notifier to subscribe to the node', async () => {
      const detail = (await (await admin.fetch(`${gatewayUrl}/api/v1/clusters/${clusterId}`)).json()) as {
        capabilities?: { notifications?: { status?: string } };
      };
      return detail.capabilities?.notifications?.status === 'AVAILABLE';
    });
  return clusterId;
}
