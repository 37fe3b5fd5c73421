import type { Stoppable } from '@artemis-studio/bus';
import {
  buckets,
  channels,
  subjectPatterns,
  type CapabilityVerdict,
  type Signal,
} from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import {
  brokerCluster,
  type BrokerProfile,
  brokerProfile,
  cleanStream,
  followRawEvents,
  declareLive,
  insertCluster,
  openAmqpClient,
  type RunningService,
  startService,
  testBus,
  testConfig,
  testDatabaseUrl,
  waitFor,
} from '@artemis-studio/testing';
import axios from 'axios';
import type { DataSource } from 'typeorm';
import { NotifierModule } from './app.module';

export const WINDOW_MS = 1000;

/**
 * What the notifier suites run against: the real test broker and NATS, a cluster registered for
 * the broker, and the notifier in process; every event and signal heard on the bus.
 */
export class NotifierStack {
  broker!: BrokerProfile;
  db!: DataSource;
  notifier!: RunningService;
  readonly bus = testBus('notifier-test');
  readonly signals: (Signal & { at: number })[] = [];
  readonly consumers: Stoppable[] = [];
  readonly durables: string[] = [];
  readonly clusterIds: string[] = [];

  readonly amqp = (user = this.broker.user, password = this.broker.password) =>
    openAmqpClient(this.broker.nodes[0].amqpUrl, user, password);

  /** Registers the test broker as a cluster and says it is live, as the scraper would. */
  readonly registerLive = async (credentials?: { amqp?: { username: string; password: string } }) => {
    const cluster = await insertCluster(this.db, { ...brokerCluster(this.broker), ...credentials });
    this.clusterIds.push(cluster.id);
    await declareLive(this.bus, cluster.id, this.broker);
    return cluster;
  };

  /** Every event of the cluster the stream holds, read with a durable consumer of our own. */
  readonly streamOf = (clusterId: string) => {
    const { events, durable, consumer } = followRawEvents(this.bus, clusterId, 'notifier-test');
    this.durables.push(durable);
    this.consumers.push(consumer);
    return events;
  };

  readonly verdictOf = async (clusterId: string): Promise<CapabilityVerdict | undefined> =>
    (await (await this.bus.kv(buckets.capabilities)).get(clusterId))?.value;

  /** A live cluster registered, its raw events followed, once the notifier subscribes to it. */
  readonly followAvailableCluster = async () => {
    const cluster = await this.registerLive();
    const events = this.streamOf(cluster.id);
    await waitFor('AVAILABLE', async () => (await this.verdictOf(cluster.id))?.status === 'AVAILABLE');
    return { cluster, events };
  };

  /** The notification address's security setting: `roles` may subscribe, `senders` send to it. */
  readonly securitySettings = (roles: string, senders = '') =>
    axios.post(
      this.broker.nodes[0].jolokiaUrl,
      {
        type: 'exec',
        mbean: `org.apache.activemq.artemis:broker="${this.broker.nodes[0].name}"`,
        operation: `addSecuritySettings(${Array(8).fill('java.lang.String').join(',')})`,
        arguments: ['activemq.notifications', senders, roles, '', '', roles, roles, ''],
      },
      {
        auth: { username: this.broker.user, password: this.broker.password },
        headers: { Origin: 'http://127.0.0.1' },
      },
    );

  async start(): Promise<void> {
    this.broker = await brokerProfile(testConfig.brokerProfile);
    this.db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    this.bus.subscribe(
      channels.signal,
      subjectPatterns.signal(),
      (s) => void this.signals.push({ ...s, at: Date.now() }),
    );
    await this.bus.ready();
    this.notifier = await startService(NotifierModule, { LEASE_TTL_MS: '3000' });
  }

  async stop(): Promise<void> {
    await this.notifier.close();
    for (const c of this.consumers) await c.stop();
    await cleanStream({ clusterIds: this.clusterIds, durables: this.durables });
    await this.bus.close();
    await this.db.destroy();
  }
}
