import { QueueActionResultSchema, type AuditEvent, type QueueActionResult } from '@artemis-studio/contracts';
import {
  brokerJolokia,
  brokerProfile,
  fillQueue,
  registerLiveBroker,
  signIn,
  signInAs,
  spawnService,
  testConfig,
  type ApiSession,
  type BrokerProfile,
  type ServiceProcess,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';

/**
 * Queue actions against the real test broker, through the whole path: gateway → the cluster's
 * owner (a scraper) → Jolokia. What the API says is checked against what the broker says after.
 */

/**
 * What the broker-action suites run against: the scraper and a gateway as processes over the real
 * test broker, a cluster registered for it, and an admin, an operator and a viewer signed in.
 */
export class BrokerActionsStack {
  readonly processes: ServiceProcess[] = [];
  broker!: BrokerProfile;
  gateway!: ServiceProcess;
  admin!: ApiSession;
  operator!: ApiSession;
  viewer!: ApiSession;
  clusterId!: string;
  readonly base = () => `${this.gateway.url}/api/v1/clusters/${this.clusterId}`;

  readonly jolokia = (body: object) => brokerJolokia(this.broker, body);
  /** The queue's attributes as the broker has them now, or null when it has no such queue. */
  readonly onBroker = async (queue: string) => {
    const answer = await this.jolokia({
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${this.broker.nodes[0].name}",component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`,
      attribute: ['MessageCount', 'Paused'],
    });
    return answer.status === 200 ? (answer.value as { MessageCount: number; Paused: boolean }) : null;
  };
  readonly fill = (queue: string, count: number) => fillQueue(this.broker, queue, count);
  /** An action on a queue (`path` is `<queue>/<action>`, or the queue alone for a delete). */
  readonly act = (as: ApiSession, method: 'POST' | 'DELETE', path: string, key?: string, body?: unknown) =>
    as.fetch(`${this.base()}/queues/${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(key ? { 'Idempotency-Key': key } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  readonly result = async (response: Response): Promise<QueueActionResult> => {
    expect(response.status).toBe(200);
    return QueueActionResultSchema.parse(await response.json());
  };
  /** The cluster's settings changed by its admin (message access, masking, read-only). */
  readonly settings = (body: unknown) =>
    this.admin.fetch(this.base(), {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  readonly audited = async (action: string, target: string): Promise<AuditEvent[]> => {
    const response = await this.admin.fetch(
      `${this.gateway.url}/api/v1/audit?action=${action}&clusterId=${this.clusterId}`,
    );
    return ((await response.json()) as { items: AuditEvent[] }).items.filter((e) => e.target === target);
  };

  async start(): Promise<void> {
    this.broker = await brokerProfile(testConfig.brokerProfile);
    this.gateway = await spawnService('gateway', 18570);
    this.processes.push(
      this.gateway,
      await spawnService('scraper', 18571),
      await spawnService('event-store', 18572),
    );
    this.processes.push(await spawnService('notifier', 18573));
    this.admin = await signIn(this.gateway.url);
    this.operator = await signInAs(this.gateway.url, this.admin, 'operator');
    this.viewer = await signInAs(this.gateway.url, this.admin, 'viewer');
    this.clusterId = await registerLiveBroker(this.gateway.url, this.admin, this.broker, {
      name: `actions-${randomUUID().slice(0, 8)}`,
      amqp: true,
    });
  }

  async stop(): Promise<void> {
    await this.admin
      ?.fetch(`${this.gateway.url}/api/v1/clusters/${this.clusterId}`, { method: 'DELETE' })
      .catch(() => undefined);
    await Promise.all(this.processes.map((p) => p.stop()));
  }
}
