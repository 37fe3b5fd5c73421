import {
  createTestDatabase,
  signIn,
  spawnService,
  type ApiSession,
  type ServiceProcess,
  type TestDatabase,
} from '@artemis-studio/testing';
import { z } from 'zod';
import { GatewayModule } from '../app.module';
import { declaredRoutes } from './route-catalog';

/** A small seeded generator: the same run every time, and a failure names its seed and input. */
function prng(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

/** Hostile values for one text field: wrong types, bounds, encodings, injection, sheer size. */
const HOSTILE: readonly unknown[] = [
  '',
  ' ',
  '-1',
  '0',
  '1e309',
  'NaN',
  '99999999999999999999999',
  'true',
  'null',
  '../../etc/passwd',
  '%00',
  '\u0000',
  "' OR 1=1 --",
  '"; DROP TABLE cluster; --',
  '<script>alert(1)</script>',
  '${7*7}',
  '\ud800',
  '😀'.repeat(500),
  'x'.repeat(70_000),
  '2026-13-45T99:99:99Z',
  '00000000-0000-0000-0000-000000000000',
  'not-a-uuid',
];
const HOSTILE_JSON: readonly unknown[] = [
  null,
  true,
  -1,
  1e308,
  [],
  {},
  'x'.repeat(10_000),
  { __proto__: { admin: true } },
  { constructor: { prototype: { polluted: true } } },
  Array.from({ length: 5000 }, (_, i) => i),
  JSON.parse('{"a":'.repeat(400) + '1' + '}'.repeat(400)),
];
const RAW_BODIES: readonly string[] = [
  '{',
  'not json',
  '{"a":1,}',
  '\u0000\u0001',
  'x'.repeat(2 * 1024 * 1024),
];

/** A path segment; a lone surrogate cannot be encoded, so it goes as the invalid UTF-8 it would be. */
const segment = (value: unknown): string => {
  try {
    return encodeURIComponent(String(value));
  } catch {
    return '%ED%A0%80';
  }
};

const fieldsOf = (schema: z.ZodType | undefined): string[] => {
  if (!schema) return [];
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : ['kind', 'name', 'username', 'value'];
};

/**
 * Every route the gateway serves, fed malformed, oversized and hostile input generated from its
 * contract (its path parameters, query fields and body fields), as an administrator (the most a
 * request can reach) and without credentials. Nothing may answer 5xx, and the gateway must still
 * be ready at the end. Seeded: a failure reproduces.
 */
describe('the gateway under hostile input (fuzz, seeded)', () => {
  const SEED = 20261130;
  const PER_ROUTE = 60;
  let gateway: ServiceProcess;
  let store: ServiceProcess;
  let admin: ApiSession;
  let database: TestDatabase;

  beforeAll(async () => {
    // A database of its own: the hundreds of failed sign-ins sent here would otherwise count
    // against 127.0.0.1 for every other test signing in within the minute (the limiter reads the
    // audit trail).
    database = await createTestDatabase({ migrated: true });
    gateway = await spawnService('gateway', 18498, { DATABASE_URL: database.url });
    store = await spawnService('event-store', 18499, { DATABASE_URL: database.url });
    admin = await signIn(gateway.url);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([gateway?.stop(), store?.stop()]);
    await database?.drop();
  });

  it('answers every route below 500 whatever it is sent, and stays ready', async () => {
    const random = prng(SEED);
    const failures: string[] = [];
    let sent = 0;
    const routes = declaredRoutes(GatewayModule).filter((r) => r.permission !== 'operational');
    for (const route of routes) {
      const operation = route.operation!;
      // These end the session they are sent with: fuzzed without one.
      const ownSession = !['/api/v1/auth/sign-out', '/api/v1/auth/password'].includes(route.path);
      for (let i = 0; i < PER_ROUTE; i++) {
        const path = route.path.replace(/:(\w+)/g, () =>
          segment(random.next() < 0.3 ? '00000000-0000-0000-0000-000000000000' : random.pick(HOSTILE)),
        );
        const query = new URLSearchParams();
        for (const field of fieldsOf(operation.query))
          if (random.next() < 0.6) query.append(field, String(random.pick(HOSTILE)).slice(0, 4000));
        if (random.next() < 0.2) query.append('unknownField', 'x');
        let body: string | undefined;
        if (route.method !== 'GET') {
          const roll = random.next();
          if (roll < 0.2) body = random.pick(RAW_BODIES);
          else if (roll < 0.4) body = JSON.stringify(random.pick(HOSTILE_JSON));
          else
            body = JSON.stringify(
              Object.fromEntries(
                fieldsOf(operation.body).map((f) => [f, random.pick([...HOSTILE, ...HOSTILE_JSON])]),
              ),
            );
        }
        const url = `${gateway.url}${path}${query.size ? `?${query}` : ''}`;
        // Past Node's 16 KiB head the server answers 431 and closes: a body still being sent
        // would meet a reset instead of the answer, so an oversized request goes without one.
        if (url.length > 16_000) body = undefined;
        const init: RequestInit = {
          method: route.method,
          redirect: 'manual',
          signal: AbortSignal.timeout(15_000),
          headers: { 'Content-Type': 'application/json', 'Last-Event-ID': random.next() < 0.1 ? '-5' : '0' },
          ...(body === undefined ? {} : { body }),
        };
        const as = ownSession && random.next() < 0.8 ? admin : null;
        let status: number;
        try {
          const response = as ? await as.fetch(url, init) : await fetch(url, init);
          status = response.status;
          await response.body?.cancel();
        } catch (err) {
          status = 599;
          failures.push(`${route.method} ${url.slice(0, 200)}: ${(err as Error).message}`);
        }
        sent++;
        if (status >= 500 && status !== 599)
          failures.push(
            `${route.method} ${url.slice(0, 200)} body ${String(body).slice(0, 120)} → ${status}`,
          );
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(2000);
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
  }, 300_000);
});
