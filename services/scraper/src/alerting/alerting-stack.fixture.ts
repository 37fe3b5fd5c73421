import { channels, subjectPatterns, type AlertTransition } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import { SettingsRepository } from '@artemis-studio/platform';
import {
  brokerCluster,
  brokerExec,
  brokerProfile,
  insertCluster,
  insertReceiver,
  startAlertmanager,
  startService,
  startSmtpServer,
  testBus,
  testConfig,
  testDatabaseUrl,
  type BrokerProfile,
  type RunningService,
  type TestAlertmanager,
  type TestSmtpServer,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ScraperModule } from '../app.module';
import { startWebhookReceiver, WEBHOOK_SECRET, type WebhookReceiver } from './webhook-receiver.fixture';

export const TICK_MS = 1000;

/** Where the stack's notifications say the console is: each links to its alert's page there. */
export const CONSOLE_URL = 'https://studio.test';

/**
 * What the alerting suites run against: the scraper in process over the real test broker, with a
 * queue and a cluster of their own (and a node nobody answers on), an Alertmanager, a signed
 * webhook receiver and an SMTP server, every transition heard on the bus; ticks of a second.
 */

export class AlertingStack {
  broker!: BrokerProfile;
  db!: DataSource;
  alertmanager!: TestAlertmanager;
  webhook!: WebhookReceiver;
  smtp!: TestSmtpServer;
  scraperEnv!: Record<string, string>;
  scraper!: RunningService;
  cluster!: { id: string; nodeIds: string[] };
  readonly bus = testBus('alerting-test');
  readonly transitions: AlertTransition[] = [];
  readonly queue = `alerting.${randomUUID()}`;
  readonly clusterName = `alerting-${randomUUID().slice(0, 8)}`;

  readonly alertRows = (ruleId: string) =>
    this.db.query(
      `SELECT id, subject, state, value, fired_at, ended_at, end_reason FROM alert WHERE rule_id = $1`,
      [ruleId],
    );
  readonly addRule = async (rule: Record<string, unknown>) =>
    (
      await this.db.query(
        `INSERT INTO alert_rule (cluster_id, name, kind, subjects, threshold, for_seconds, severity, labels)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [
          this.cluster.id,
          rule.name,
          rule.kind,
          rule.subjects,
          rule.threshold ?? null,
          rule.forSeconds ?? 0,
          'critical',
          JSON.stringify(rule.labels ?? {}),
        ],
      )
    )[0].id as string;

  /** One Alertmanager receiver per team, taking only the alerts labelled with its team. */
  readonly addTeamReceivers = (teams: string[]) =>
    Promise.all(
      teams.map((team) =>
        insertReceiver(this.db, this.cluster.id, {
          name: `${team} team`,
          kind: 'alertmanager',
          url: this.alertmanager.url,
          matchers: { team },
        }),
      ),
    );

  async start(): Promise<void> {
    this.broker = await brokerProfile(testConfig.brokerProfile);
    this.db = await createDataSource({ url: testDatabaseUrl(), poolSize: 2 }).initialize();
    const settings = new SettingsRepository(this.db);
    await settings.put('artemis-studio.scrape.tier-a-millis', TICK_MS);
    await settings.put('artemis-studio.scrape.tier-b-millis', TICK_MS);
    this.alertmanager = await startAlertmanager();
    this.webhook = await startWebhookReceiver();
    this.bus.subscribe(channels.alert, subjectPatterns.alert(), (t) => void this.transitions.push(t));
    await this.bus.ready();
    // A second node nobody answers on: the node rule's subject.
    const fixture = brokerCluster(this.broker);
    this.cluster = await insertCluster(this.db, {
      ...fixture,
      name: this.clusterName,
      nodes: [...fixture.nodes, { name: 'gone', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
    });
    await insertReceiver(this.db, this.cluster.id, {
      name: 'am',
      kind: 'alertmanager',
      url: this.alertmanager.url,
    });
    await insertReceiver(this.db, this.cluster.id, {
      name: 'hook',
      kind: 'webhook',
      url: this.webhook.url,
      secret: WEBHOOK_SECRET,
    });
    await brokerExec(this.broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: this.queue, address: this.queue, 'routing-type': 'ANYCAST' }),
      true,
    ]);
    this.smtp = await startSmtpServer('studio-alerts', 'an-smtp-password');
    this.scraperEnv = {
      LEASE_TTL_MS: '3000',
      SCRAPER_SMTP_CA_FILE: this.smtp.caFile,
      STUDIO_CONSOLE_URL: CONSOLE_URL,
    };
    this.scraper = await startService(ScraperModule, this.scraperEnv);
  }

  async stop(): Promise<void> {
    await this.scraper?.close();
    await brokerExec(this.broker, 'destroyQueue(java.lang.String,boolean)', [this.queue, true]).catch(
      () => undefined,
    );
    await this.db.query(`DELETE FROM cluster WHERE id = $1`, [this.cluster.id]);
    const settings = new SettingsRepository(this.db);
    await settings.reset('artemis-studio.scrape.tier-a-millis');
    await settings.reset('artemis-studio.scrape.tier-b-millis');
    await this.alertmanager?.stop();
    await this.webhook?.close();
    await this.smtp?.close();
    await this.db.destroy();
    await this.bus.close();
  }
}
