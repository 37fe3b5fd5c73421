import { MessageJobSchema, type MessageJob, type MessageJobBodyInput } from '@artemis-studio/contracts';
import {
  brokerExec,
  brokerProfile,
  registerLiveBroker,
  signIn,
  signInAs,
  spawnService,
  testConfig,
  waitFor,
  type ApiSession,
  type BrokerProfile,
  type ServiceProcess,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';

/**
 * Message jobs against the real test broker, through the whole path: gateway → the cluster's owner
 * (a scraper) → Jolokia, in batches. Every count the API reports is checked against the broker's
 * MessageCount on both queues, and by consuming what arrived.
 */

/**
 * What the message-job suites run against: the scraper, a gateway and an event store as processes
 * over the real test broker, a cluster registered for it, an operator signed in.
 */
export class MessageJobsStack {
  readonly processes: ServiceProcess[] = [];
  broker!: BrokerProfile;
  gateway!: ServiceProcess;
  admin!: ApiSession;
  operator!: ApiSession;
  viewer!: ApiSession;
  clusterId!: string;
  readonly base = () => `${this.gateway.url}/api/v1/clusters/${this.clusterId}`;
  readonly unique = (what: string) => `jobs.${what}.${randomUUID().slice(0, 8)}`;

  readonly startJob = (
    as: ApiSession,
    queue: string,
    kind: string,
    body: MessageJobBodyInput,
    key: string = randomUUID(),
  ) =>
    as.fetch(`${this.base()}/queues/${queue}/messages/${kind}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
    });
  readonly resumeJob = (as: ApiSession, id: string, key: string = randomUUID()) =>
    as.fetch(`${this.base()}/message-jobs/${id}/resume`, {
      method: 'POST',
      headers: { 'Idempotency-Key': key },
    });
  readonly started = async (response: Response): Promise<MessageJob> => {
    expect(response.status).toBe(202);
    return MessageJobSchema.parse(await response.json());
  };
  readonly jobNow = async (id: string) =>
    MessageJobSchema.parse(await (await this.operator.fetch(`${this.base()}/message-jobs/${id}`)).json());
  readonly ended = async (id: string): Promise<MessageJob> => {
    let job!: MessageJob;
    await waitFor(`job ${id} to end`, async () => (job = await this.jobNow(id)).status !== 'running', {
      timeoutMs: 60_000,
    });
    return job;
  };
  /** A queue whose address pages past a few kilobytes: most of what it holds is on disk. */
  readonly pagingQueue = (queue: string) =>
    brokerExec(this.broker, 'addAddressSettings(java.lang.String,java.lang.String)', [
      queue,
      JSON.stringify({ maxSizeBytes: 65536, pageSizeBytes: 32768, addressFullMessagePolicy: 'PAGE' }),
    ]);
  readonly createQueue = (queue: string) =>
    brokerExec(this.broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: queue, address: queue, 'routing-type': 'ANYCAST' }),
      true,
    ]);

  async start(): Promise<void> {
    this.broker = await brokerProfile(testConfig.brokerProfile);
    this.gateway = await spawnService('gateway', 18580);
    this.processes.push(this.gateway, await spawnService('scraper', 18581));
    this.admin = await signIn(this.gateway.url);
    this.operator = await signInAs(this.gateway.url, this.admin, 'operator');
    this.viewer = await signInAs(this.gateway.url, this.admin, 'viewer');
    this.clusterId = await registerLiveBroker(this.gateway.url, this.admin, this.broker, {
      name: `jobs-${randomUUID().slice(0, 8)}`,
      // A body filter reads the queue over AMQP; this stack runs no notifier to subscribe.
      amqp: true,
      notifications: false,
    });
  }

  async stop(): Promise<void> {
    await this.admin
      ?.fetch(`${this.gateway.url}/api/v1/clusters/${this.clusterId}`, { method: 'DELETE' })
      .catch(() => undefined);
    await Promise.all(this.processes.map((p) => p.stop()));
  }
}
