import type { Bus } from '@artemis-studio/bus';
import { buckets, type Credential } from '@artemis-studio/contracts';
import { ClusterCredentialEntity, ClusterEntity, SecretVault, sealCredential } from '@artemis-studio/db';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { BrokerProfile } from './broker';

/** The vault key every service of this test run is started with. */
export const TEST_SECRET_KEY = process.env.STUDIO_TEST_SECRET_KEY ?? Buffer.alloc(32, 7).toString('base64');
const testVault = () => SecretVault.fromBase64(TEST_SECRET_KEY);

export interface ClusterFixture {
  name?: string;
  nodes: { name: string; jolokiaUrl: string; amqpUrl?: string | null }[];
  jolokia?: Credential;
  amqp?: Credential;
}

/**
 * Writes a registration straight into the registry, as the gateway would, for tests of the
 * services that read it. Returns the cluster id and its node ids in order.
 */
export async function insertCluster(
  dataSource: DataSource,
  fixture: ClusterFixture,
): Promise<{ id: string; nodeIds: string[] }> {
  // One transaction, as a registration must be: a reader never sees the cluster without its credentials.
  return dataSource.transaction(async (tx) => {
    const cluster = await tx.getRepository(ClusterEntity).save({
      name: fixture.name ?? `test-${randomUUID()}`,
      jolokiaOrigin: null,
      nodes: fixture.nodes.map((n, position) => ({ ...n, amqpUrl: n.amqpUrl ?? null, position })),
    });
    const vault = testVault();
    for (const [kind, credential] of [
      ['JOLOKIA', fixture.jolokia],
      ['AMQP', fixture.amqp],
    ] as const) {
      if (!credential) continue;
      await tx
        .getRepository(ClusterCredentialEntity)
        .save({ clusterId: cluster.id, kind, sealed: sealCredential(vault, cluster.id, kind, credential) });
    }
    const nodeIds = [...cluster.nodes].sort((a, b) => a.position - b.position).map((n) => n.id);
    return { id: cluster.id, nodeIds };
  });
}

/** A cluster of the profile's brokers with the studio credential. */
export function brokerCluster(broker: BrokerProfile, name?: string): ClusterFixture {
  return {
    name,
    nodes: broker.nodes.map((n) => ({ name: n.name, jolokiaUrl: n.jolokiaUrl, amqpUrl: n.amqpUrl })),
    jolokia: { username: broker.user, password: broker.password },
  };
}

/**
 * Says, as the scraper would after polling it, that every node of `broker` is live in cluster
 * `clusterId`: what a test of the notifier or the gateway needs without running a scraper.
 */
export async function declareLive(bus: Bus, clusterId: string, broker: BrokerProfile): Promise<void> {
  await (
    await bus.kv(buckets.liveNodes)
  ).put(clusterId, {
    clusterId,
    asOf: new Date().toISOString(),
    nodes: broker.nodes.map((n) => ({ name: n.name, jolokiaUrl: n.jolokiaUrl, amqpUrl: n.amqpUrl })),
  });
}

/** An alert receiver written as the gateway would, its secret sealed with the test key. */
export async function insertReceiver(
  dataSource: DataSource,
  clusterId: string,
  receiver: {
    name: string;
    kind: 'alertmanager' | 'webhook' | 'slack' | 'teams' | 'email';
    url: string;
    secret?: string;
    minSeverity?: string;
    email?: { from: string; to: string[]; user?: string };
    /** Only alerts whose rule carries each of these labels. */
    matchers?: Record<string, string>;
  },
): Promise<string> {
  const id = randomUUID();
  await dataSource.query(
    `INSERT INTO alert_receiver (id, cluster_id, name, kind, url, min_severity, sealed_secret, email, matchers)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      clusterId,
      receiver.name,
      receiver.kind,
      receiver.url,
      receiver.minSeverity ?? 'info',
      receiver.secret ? testVault().seal(receiver.secret, id, 'RECEIVER') : null,
      receiver.email ?? null,
      JSON.stringify(receiver.matchers ?? {}),
    ],
  );
  return id;
}
