import { createDataSource } from '@artemis-studio/db';
import {
  signIn,
  signInAs,
  spawnService,
  testBus,
  testDatabaseUrl,
  TEST_ADMIN_PASSWORD,
  type ApiSession,
  type ServiceProcess,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

export type Role = 'viewer' | 'operator' | 'admin';
export const ROLES: Role[] = ['viewer', 'operator', 'admin'];
export const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * What the access suites run against: two gateway replicas (every request logged, so a check of
 * the logs reads the most they could hold) and an event store, against real PostgreSQL and NATS;
 * the first admin, one cluster, and a session of each role.
 */
export class AccessStack {
  readonly processes: ServiceProcess[] = [];
  gateway!: ServiceProcess;
  second!: ServiceProcess;
  admin!: ApiSession;
  db!: DataSource;
  readonly bus = testBus('access-test');
  readonly sessions = {} as Record<Role, ApiSession & { userId: string; username: string }>;
  clusterId!: string;
  readonly clusterName = `matrix-${randomUUID().slice(0, 8)}`;
  /** Credentials the tests send; none may appear in a log line. */
  readonly planted: string[] = [TEST_ADMIN_PASSWORD];

  constructor(private readonly ports: { gateway: number; second: number; eventStore: number }) {}

  async start(): Promise<void> {
    this.db = createDataSource({ url: testDatabaseUrl() });
    await this.bus.ready();
    this.gateway = await spawnService('gateway', this.ports.gateway, { LOG_LEVEL: 'debug' });
    this.second = await spawnService('gateway', this.ports.second, { LOG_LEVEL: 'debug' });
    this.processes.push(this.gateway, this.second, await spawnService('event-store', this.ports.eventStore));
    await this.db.initialize();
    this.admin = await signIn(this.gateway.url);
    this.clusterId = await this.registerCluster(this.clusterName);
    for (const role of ROLES) this.sessions[role] = await signInAs(this.gateway.url, this.admin, role);
  }

  async stop(): Promise<void> {
    await this.admin?.fetch(
      `${this.gateway.url}/api/v1/settings/artemis-studio.events.flush`,
      json('PUT', { value: 1000 }),
    );
    await Promise.all(this.processes.map((p) => p.stop()));
    await this.db?.destroy();
    await this.bus.close();
  }

  /**
   * Both replicas log JSON lines, each request (at least `requests` of them) with its id, and no
   * credential the tests sent (the planted ones, every session's cookie and password) in any.
   */
  expectLogsWithoutCredentials(requests: number): void {
    const lines = this.logLines();
    const records = lines.map(
      (line) => JSON.parse(line) as { level: string; req?: unknown; requestId?: string },
    );
    const logged = records.filter((r) => r.req);
    expect(logged.length).toBeGreaterThan(requests);
    expect(logged.filter((r) => !r.requestId)).toEqual([]);
    for (const secret of this.planted) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
  }

  private logLines(): string[] {
    for (const session of [this.admin, ...Object.values(this.sessions)])
      this.planted.push(
        session.headers.Cookie!.split('=')[1]!,
        ...('username' in session ? [`${session.username}-password`] : []),
      );
    return [this.gateway, this.second].flatMap((g) => g.output().split('\n').filter(Boolean));
  }

  readonly registerCluster = async (name = `c-${randomUUID().slice(0, 8)}`) => {
    const response = await this.admin.fetch(
      `${this.gateway.url}/api/v1/clusters`,
      json('POST', { name, nodes: [{ name: 'n1', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }] }),
    );
    if (response.status !== 201) throw new Error(`registering ${name}: ${response.status}`);
    return ((await response.json()) as { id: string }).id;
  };
  readonly newUser = async () => {
    const response = await this.admin.fetch(
      `${this.gateway.url}/api/v1/users`,
      json('POST', { kind: 'service', username: `svc-${randomUUID().slice(0, 8)}` }),
    );
    return ((await response.json()) as { id: string }).id;
  };
  readonly newGrant = async () => {
    const response = await this.admin.fetch(
      `${this.gateway.url}/api/v1/grants`,
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
  readonly created = async (path: string, body: unknown) => {
    const response = await this.admin.fetch(
      `${this.gateway.url}/api/v1/clusters/${this.clusterId}/${path}`,
      json('POST', body),
    );
    return ((await response.json()) as { id: string }).id;
  };
  readonly rule = () => ({ name: `r-${randomUUID().slice(0, 8)}`, kind: 'queue-depth', threshold: 10 });
  readonly newRule = () => this.created('alert-rules', this.rule());
  readonly newSilence = () =>
    this.created('alert-silences', {
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      reason: 'maintenance',
    });
  readonly receiver = () => ({
    name: `rc-${randomUUID().slice(0, 8)}`,
    kind: 'alertmanager',
    url: 'http://127.0.0.1:1',
  });
  readonly newReceiver = () => this.created('alert-receivers', this.receiver());
  readonly protection = () => ({ pattern: `pr-${randomUUID().slice(0, 8)}.*`, reason: 'kept for audits' });
  readonly newProtection = () => this.created('protections', this.protection());
  readonly unmaskedWindow = () => ({ minutes: 5, reason: 'a customer asked what we received' });
  readonly newUnmaskedWindow = () => this.created('queues/orders/unmasked-windows', this.unmaskedWindow());
}
