import { createDataSource } from '@artemis-studio/db';
import { SettingsRepository } from '@artemis-studio/platform';
import {
  artemis,
  brokerCluster,
  insertCluster,
  startBroker,
  startService,
  testDatabaseUrl,
  type BrokerProfile,
  type RunningService,
} from '@artemis-studio/testing';
import type { DataSource } from 'typeorm';
import { ScraperModule } from './app.module';
import { TICK_MS } from './scraper-stack.fixture';

/** The profile seen as one of its nodes: the testing helpers speak to a profile's first node. */
export const nodeOf = (cluster: BrokerProfile, i: number): BrokerProfile => ({
  ...cluster,
  nodes: [cluster.nodes[i]],
});

const TICK_SETTINGS = ['artemis-studio.scrape.tier-a-millis', 'artemis-studio.scrape.tier-b-millis'] as const;

/**
 * Studio against the clusters operators run: the `cluster` profile's two live nodes (a static
 * cluster connection with max-hops 1, redistribution off but on `redistributed.#`), or with
 * `cluster-ha` the same two with a replica backup each, registered as one cluster and polled by a
 * scraper at 1 s ticks.
 */
export class ClusterStack {
  cluster!: BrokerProfile;
  db!: DataSource;
  clusterId!: string;
  nodeIds!: string[];
  private scraper?: RunningService;

  constructor(private readonly profile: 'cluster' | 'cluster-ha' = 'cluster') {}

  /** `beforePolling` runs once the cluster is registered, before anything polls it (to add rules). */
  async start(beforePolling: (stack: ClusterStack) => Promise<void> = async () => undefined): Promise<void> {
    this.cluster = await startBroker(this.profile);
    this.db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    const settings = new SettingsRepository(this.db);
    for (const key of TICK_SETTINGS) await settings.put(key, TICK_MS);
    ({ id: this.clusterId, nodeIds: this.nodeIds } = await insertCluster(
      this.db,
      brokerCluster(this.cluster),
    ));
    await beforePolling(this);
    this.scraper = await startService(ScraperModule, { LEASE_TTL_MS: '3000' });
  }

  /** A rule on the cluster, in force at once (no "for"); its id. */
  async addRule(kind: string, subjects = '*', threshold: number | null = null): Promise<string> {
    const [{ id }]: { id: string }[] = await this.db.query(
      `INSERT INTO alert_rule (cluster_id, name, kind, subjects, threshold, for_seconds, severity)
       VALUES ($1, $2, $2, $3, $4, 0, 'warning') RETURNING id`,
      [this.clusterId, kind, subjects, threshold],
    );
    return id;
  }

  /** The rule's latest alert (on `subject`, when given) as [state, value]; null when it has none. */
  async alertOf(ruleId: string, subject?: string): Promise<[string, number] | null> {
    const rows: { state: string; value: number }[] = await this.db.query(
      `SELECT state, value FROM alert WHERE rule_id = $1 AND ($2::text IS NULL OR subject = $2)
        ORDER BY started_at DESC LIMIT 1`,
      [ruleId, subject ?? null],
    );
    return rows[0] ? [rows[0].state, rows[0].value] : null;
  }

  async stop(): Promise<void> {
    await this.scraper?.close();
    if (this.db) {
      const settings = new SettingsRepository(this.db);
      for (const key of TICK_SETTINGS) await settings.reset(key);
      await this.db.destroy();
    }
    // Two (four) more JVMs are not left running beside the suites that follow.
    await artemis('reset', this.profile);
  }
}
