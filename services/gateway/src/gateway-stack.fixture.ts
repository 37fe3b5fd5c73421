import { channels, subjects } from '@artemis-studio/contracts';
import {
  type ApiSession,
  type BrokerProfile,
  brokerProfile,
  cleanStream,
  rawBrokerEvent,
  signIn,
  type ServiceProcess,
  spawnService,
  testBus,
  testConfig,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';

export const SECRET = `s3cr3t-${randomUUID()}`;
interface Cluster {
  id: string;
  name: string;
}
export const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/**
 * What the gateway suites run against: a gateway (a client lagging past 2 s is cut) and an event
 * store as processes on real PostgreSQL and NATS, the test broker to register, an admin signed in.
 */
export class GatewayStack {
  readonly processes: ServiceProcess[] = [];
  gateway!: ServiceProcess;
  broker!: BrokerProfile;
  readonly bus = testBus('gateway-test');
  readonly clusterIds: string[] = [];
  api!: ApiSession;
  readonly register = async (
    url = this.gateway.url,
    name = `c-${randomUUID()}`,
    credential?: { username: string; password: string },
  ) => {
    const response = await this.api.fetch(
      `${url}/api/v1/clusters`,
      json({
        name,
        nodes: [
          {
            name: this.broker.nodes[0].name,
            jolokiaUrl: this.broker.nodes[0].jolokiaUrl,
            amqpUrl: this.broker.nodes[0].amqpUrl,
          },
        ],
        // A planted secret, never sent to the broker as the broker's own user: a wrong password for
        // a real user name locks that user out of the shared test broker for every later test.
        credentials: { jolokia: credential ?? { username: 'planted-user', password: SECRET } },
      }),
    );
    const body = (await response.json()) as Cluster;
    if (response.status === 201) this.clusterIds.push(body.id);
    return { status: response.status, body };
  };
  readonly raw = (clusterId: string) => rawBrokerEvent({ clusterId, receivedAt: new Date().toISOString() });
  readonly publishEvents = (clusterId: string, n: number) =>
    Promise.all(
      Array.from({ length: n }, () => this.raw(clusterId)).map((e) =>
        this.bus.publishDurable(channels.eventRaw, subjects.eventRaw(clusterId), e, { msgId: e.eventId }),
      ),
    );
  readonly eventIds = (frames: { event: string; id?: string }[]) =>
    frames.filter((f) => f.event === 'events').map((f) => Number(f.id));

  async start(): Promise<void> {
    this.broker = await brokerProfile(testConfig.brokerProfile);
    await this.bus.ready();
    this.gateway = await spawnService('gateway', 18480, { SSE_CLIENT_MAX_LAG_MS: '2000' });
    this.processes.push(this.gateway, await spawnService('event-store', 18481));
    this.api = await signIn(this.gateway.url);
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop()));
    await cleanStream({ clusterIds: this.clusterIds });
    await this.bus.close();
  }
}
