import { channels, subjectPatterns, type Signal } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import { SettingsRepository } from '@artemis-studio/platform';
import {
  brokerCluster,
  brokerProfile,
  insertCluster,
  startService,
  testConfig,
  testDatabaseUrl,
  waitFor,
  type BrokerProfile,
  type RunningService,
  testBus,
} from '@artemis-studio/testing';
import axios from 'axios';
import type { DataSource } from 'typeorm';
import { ScraperModule } from './app.module';

export const TICK_MS = 1000;

/**
 * What the scraper suites run against: the real test broker, PostgreSQL and NATS, ticks of a
 * second, every signal heard; and, for the one-replica suites, a cluster registered for the broker
 * and a scraper polling it in process.
 */
export class ScraperStack {
  broker!: BrokerProfile;
  db!: DataSource;
  readonly bus = testBus('scraper-test');
  readonly signals: Signal[] = [];

  /** The cluster's stored queue snapshots (all, or one queue's), as the table holds them. */
  readonly snapshotsOf = (clusterId: string, queue?: string): Promise<Record<string, unknown>[]> =>
    this.db.query(`SELECT * FROM queue_snapshot WHERE cluster_id = $1 AND ($2::text IS NULL OR name = $2)`, [
      clusterId,
      queue ?? null,
    ]);
  readonly signalsOf = (clusterId: string, topic: string) =>
    this.signals.filter((s) => s.clusterId === clusterId && s.topic === topic);
  readonly jolokia = (body: unknown) =>
    axios.post(this.broker.nodes[0].jolokiaUrl, body, {
      auth: { username: this.broker.user, password: this.broker.password },
      headers: { Origin: 'http://127.0.0.1' },
    });
  readonly createQueue = async (name: string) => {
    const { data } = await this.jolokia({
      type: 'exec',
      mbean: `org.apache.activemq.artemis:broker="${this.broker.nodes[0].name}"`,
      operation: 'createQueue(java.lang.String,boolean)',
      arguments: [JSON.stringify({ name, address: name, 'routing-type': 'ANYCAST' }), true],
    });
    expect(data.status).toBe(200);
  };
  readonly deleteQueue = (name: string) =>
    this.jolokia({
      type: 'exec',
      mbean: `org.apache.activemq.artemis:broker="${this.broker.nodes[0].name}"`,
      operation: 'destroyQueue(java.lang.String)',
      arguments: [name],
    });
  scraper?: RunningService;
  cluster!: { id: string; nodeIds: string[] };

  async start(): Promise<void> {
    this.broker = await brokerProfile(testConfig.brokerProfile);
    this.db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    const settings = new SettingsRepository(this.db);
    await settings.put('artemis-studio.scrape.tier-a-millis', TICK_MS);
    await settings.put('artemis-studio.scrape.tier-b-millis', TICK_MS);
    this.bus.subscribe(channels.signal, subjectPatterns.signal(), (s) => void this.signals.push(s));
    await this.bus.ready();
  }

  /** One scraper in process, polling a cluster of the test broker, past its first ticks. */
  async startReplica(): Promise<void> {
    this.cluster = await insertCluster(this.db, brokerCluster(this.broker));
    this.scraper = await startService(ScraperModule, { LEASE_TTL_MS: '3000' });
    // The first ticks see everything as new: wait for them, and for the queues to settle.
    await waitFor(
      'the first queue snapshots',
      async () => (await this.snapshotsOf(this.cluster.id)).length > 0,
    );
  }

  async stop(): Promise<void> {
    await this.scraper?.close();
    const settings = new SettingsRepository(this.db);
    await settings.reset('artemis-studio.scrape.tier-a-millis');
    await settings.reset('artemis-studio.scrape.tier-b-millis');
    await this.db.destroy();
    await this.bus.close();
  }
}
