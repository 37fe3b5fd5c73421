import { EVENTS_STREAM, buckets } from '@artemis-studio/contracts';
import { connect, type JetStreamManager } from 'nats';
import { NatsBus } from '@artemis-studio/bus';
import { StudioSettingEntity, createDataSource } from '@artemis-studio/db';
import {
  artemis,
  brokerCluster,
  createTestDatabase,
  insertCluster,
  signIn,
  spawnService,
  startBroker,
  startPrivateNats,
  startPrivateNatsCluster,
  type BrokerProfile,
  type PrivateNats,
  type ServiceProcess,
  type TestDatabase,
} from '@artemis-studio/testing';
import { appendFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TcpRelay } from './tcp-relay';

/** Where the fault suite keeps each service's output, appended across its restarts. */
export const FAULTS_LOG_DIR = process.env.FAULTS_LOG_DIR ?? '/tmp/studio-faults';

/**
 * The broker profile of the fault suite (scripts/artemis.sh): a live/backup pair of its own, or with
 * FAULTS_BROKER=cluster the symmetric cluster of two live nodes.
 */
export const FAULTS_PROFILE = process.env.FAULTS_BROKER === 'cluster' ? 'cluster' : 'faults';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks the rig's JetStream once, on a connection of its own (NATS may be restarting, or a cluster
 * node gone: a question must not wait on a connection's reconnects); `fallback` when it cannot.
 */
export async function askJetStream<T>(
  servers: string[],
  ask: (jsm: JetStreamManager) => Promise<T>,
  fallback: T,
): Promise<T> {
  const nc = await connect({ servers });
  try {
    return await ask(await nc.jetstreamManager());
  } catch {
    return fallback;
  } finally {
    await nc.close();
  }
}

/**
 * The rig's NATS: one server, or with FAULTS_NATS=cluster three on loopback, as Kubernetes runs
 * them (issue 32). In a cluster, a restart or an outage takes the node leading STUDIO_EVENTS,
 * the worst one to lose; the services are given every node, comma-separated.
 */
async function startRigNats(): Promise<PrivateNats> {
  if (process.env.FAULTS_NATS !== 'cluster') return startPrivateNats();
  const cluster = await startPrivateNatsCluster(3);
  const url = cluster.urls.join(',');
  const leader = () =>
    askJetStream(
      cluster.urls,
      async (jsm) => (await jsm.streams.info(EVENTS_STREAM)).cluster?.leader ?? 'n1',
      'n1',
    );
  return {
    url,
    pid: 0,
    restart: async (downMs = 0) => {
      const node = cluster.node(await leader());
      await node.kill();
      await sleep(downMs);
      await node.start();
    },
    stop: () => cluster.stop(),
  };
}

/**
 * Extra environment for some services, by key, to compare settings side by side in one run
 * (the soak's allocator trial): RIG_SERVICE_ENV='{"gateway-b":{"MALLOC_ARENA_MAX":"2"}}'.
 */
export function serviceEnvOverrides(
  raw = process.env.RIG_SERVICE_ENV,
): Record<string, Record<string, string>> {
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Record<string, Record<string, string>>;
  } catch (err) {
    throw new Error(
      `RIG_SERVICE_ENV is not JSON of {"<service>": {"NAME": "value"}}: ${(err as Error).message}`,
    );
  }
}

interface RigService {
  key: string;
  /** The built service it runs (`services/<binary>`). */
  binary: string;
  port: number;
  process?: ServiceProcess;
  /** Set while it is down or starting again after a kill. */
  restarting?: Promise<void>;
  /** How many rolling restarts it has been through: each one is a new replica, as a new pod is. */
  generation?: number;
}

/**
 * Everything the fault suite and the soak run, as real processes: the broker pair, a private
 * NATS, a TCP proxy in front of the machine's PostgreSQL (to cut it off without stopping it),
 * every service with two gateway replicas, and a TCP balancer in front of those.
 */
export class FaultRig {
  readonly services: RigService[] = [
    { key: 'event-store', binary: 'event-store', port: 18601 },
    { key: 'notifier', binary: 'notifier', port: 18602 },
    { key: 'scraper', binary: 'scraper', port: 18603 },
    { key: 'gateway-a', binary: 'gateway', port: 18604 },
    { key: 'gateway-b', binary: 'gateway', port: 18605 },
  ];
  clusterId = '';
  streamHeaders: Record<string, string> = {};

  private constructor(
    readonly broker: BrokerProfile,
    readonly nats: Awaited<ReturnType<typeof startPrivateNats>>,
    readonly database: TestDatabase,
    readonly postgres: TcpRelay,
    /** Straight to PostgreSQL, not through the proxy: the suite's own reads. */
    readonly db: Awaited<ReturnType<ReturnType<typeof createDataSource>['initialize']>>,
    readonly bus: NatsBus,
    readonly balancer: TcpRelay,
    private readonly env: Record<string, string>,
    private readonly logDir: string,
  ) {}

  /** Each service's own extra settings, read once (RIG_SERVICE_ENV). */
  private readonly overrides = serviceEnvOverrides();

  /** `logDir` is emptied first: a run's own, so that one run never wipes another's logs. */
  static async start(progress: (step: string) => void, logDir: string): Promise<FaultRig> {
    progress(
      `starting a fresh broker ${FAULTS_PROFILE === 'cluster' ? 'cluster (node1, node2)' : 'pair (primary, backup)'}`,
    );
    // A pair with a killed primary in its past has journals apart: start from fresh instances.
    await artemis('reset', FAULTS_PROFILE);
    const broker = await startBroker(FAULTS_PROFILE);
    progress(`starting NATS, the database behind a proxy, and the services (their output: ${logDir})`);
    rmSync(logDir, { recursive: true, force: true });
    const nats = await startRigNats();
    const database = await createTestDatabase({ migrated: true });
    process.env.STUDIO_TEST_DATABASE_URL = database.url;
    const postgres = await TcpRelay.proxy(Number(new URL(database.url).port || 5432));
    const proxied = new URL(database.url);
    proxied.port = String(postgres.port);
    const db = await createDataSource({ url: database.url, poolSize: 4 }).initialize();
    // Tier A every second, as in the failover test: a failover is seen within two polls.
    await db
      .getRepository(StudioSettingEntity)
      .insert({ key: 'artemis-studio.scrape.tier-a-millis', value: 1000, updatedAt: new Date() });
    // FAULTS_RING_SIZE=0: the non-durable subscription, to compare a fault with and without the ring.
    if (process.env.FAULTS_RING_SIZE !== undefined)
      await db.getRepository(StudioSettingEntity).insert({
        key: 'artemis-studio.notifications.ring-size',
        value: Number(process.env.FAULTS_RING_SIZE),
        updatedAt: new Date(),
      });
    const bus = new NatsBus({ servers: nats.url, name: 'fault-suite', log: { warn() {}, error() {} } });
    const env = {
      NATS_URL: nats.url,
      DATABASE_URL: proxied.toString(),
      // LEASE_TTL_MS as deployed (15 s): with STUDIO_REPLICA_ID a restarted service does not wait it out.
      LOG_LEVEL: 'warn',
      // Every follower comes through the balancer, so from one address.
      SSE_MAX_STREAMS_PER_ADDRESS: '5000',
    };
    const balancer = await TcpRelay.balance([18604, 18605]);
    const rig = new FaultRig(broker, nats, database, postgres, db, bus, balancer, env, logDir);
    for (const service of rig.services) service.process = await rig.spawn(service);

    const cluster = await insertCluster(db, brokerCluster(broker, 'faults'));
    rig.clusterId = cluster.id;
    rig.streamHeaders = (await signIn(balancer.url)).headers;
    progress('waiting for the notifier to subscribe to the live node');
    const capabilities = await bus.kv(buckets.capabilities);
    while ((await capabilities.get(cluster.id))?.value.status !== 'AVAILABLE') await sleep(200);
    return rig;
  }

  /** The cluster's broker events, as the console's events view follows them. */
  get streamUrl(): string {
    return `${this.balancer.url}/api/v1/stream?clusterId=${this.clusterId}&topics=events`;
  }

  /** The console's default topics (topology, health, queues): what its other views follow. */
  get signalStreamUrl(): string {
    return `${this.balancer.url}/api/v1/stream?clusterId=${this.clusterId}`;
  }

  service(key: string): RigService {
    const service = this.services.find((s) => s.key === key);
    if (!service) throw new Error(`no service ${key}`);
    return service;
  }

  /** SIGKILL, then a restart a second later, as an orchestrator would; resolves once it is ready again. */
  kill(key: string): Promise<void> {
    const service = this.service(key);
    if (service.restarting) return service.restarting;
    service.restarting = (async () => {
      await service.process?.kill();
      this.keepOutput(service);
      service.process = undefined;
      await sleep(1000);
      service.process = await this.spawn(service);
    })().finally(() => (service.restarting = undefined));
    return service.restarting;
  }

  /**
   * A rolling update, as Kubernetes does it: a new replica first (another name, another port),
   * ready, then SIGTERM to the old one; resolves once the old one has exited.
   */
  async rollingRestart(key: string): Promise<void> {
    const service = this.service(key);
    await service.restarting;
    const old = service.process;
    service.generation = (service.generation ?? 0) + 1;
    service.process = await this.spawn(service);
    await old?.stop();
    if (old) this.keepOutput(service, old);
  }

  /** The name the service's current process owns leases under (STUDIO_REPLICA_ID). */
  replicaOf(key: string): string {
    const generation = this.service(key).generation ?? 0;
    return generation === 0 ? key : `${key}-${generation}`;
  }

  /**
   * Another replica of a service joins under `replica` (a pod scaled up), on a port of its own;
   * `stop()` it to make it leave (SIGTERM, as a scale-down does).
   */
  async joinReplica(key: string, replica: string): Promise<ServiceProcess> {
    const service = this.service(key);
    const env = { ...this.env, STUDIO_REPLICA_ID: replica, ...this.overrides[service.key] };
    const process = await spawnService(service.binary, service.port + 25, env, [], {
      readyTimeoutMs: 120_000,
    });
    return {
      ...process,
      stop: async () => {
        await process.stop();
        this.keepOutput({ ...service, key: replica }, process);
      },
    };
  }

  /**
   * The whole of Studio taken down (SIGTERM to every service, the readers first, the event store
   * last so that what was published is stored), as for maintenance or an outage of its cluster.
   */
  async stopAll(): Promise<void> {
    for (const service of [...this.services].reverse()) await this.stopService(service.key);
  }

  /** One service stopped (SIGTERM) and left down. */
  async stopService(key: string): Promise<void> {
    const service = this.service(key);
    await service.restarting?.catch(() => undefined);
    await service.process?.stop();
    this.keepOutput(service);
    service.process = undefined;
  }

  /** Every service started again at once, as Kubernetes scales a deployment back up. */
  async startAll(): Promise<void> {
    await Promise.all(
      this.services.map(async (service) => {
        service.process ??= await this.spawn(service);
      }),
    );
  }

  /** Every service's /readyz: the ones not ready, with what they say is down. */
  async unready(): Promise<string[]> {
    const reports = await Promise.all(
      this.services.map(async (s) => {
        if (!s.process) return `${s.key}: not running`;
        const response = await fetch(`${s.process.url}/readyz`, { signal: AbortSignal.timeout(3000) }).catch(
          () => undefined,
        );
        if (!response) return `${s.key}: no answer`;
        if (response.status === 200) return null;
        const body = (await response.json()) as { checks: Record<string, { ok: boolean; detail: string }> };
        const down = Object.entries(body.checks).filter(([, c]) => !c.ok);
        return `${s.key}: ${down.map(([name, c]) => `${name} (${c.detail.slice(0, 60)})`).join(', ')}`;
      }),
    );
    return reports.filter((r): r is string => r !== null);
  }

  async stop(): Promise<void> {
    await this.balancer.stop();
    for (const service of this.services) {
      await service.restarting?.catch(() => undefined);
      await service.process?.stop();
      this.keepOutput(service);
    }
    await this.bus.close();
    await this.db.destroy();
    await this.postgres.stop();
    await this.database.drop();
    await this.nats.stop();
    await artemis('stop', FAULTS_PROFILE);
  }

  private keepOutput(service: RigService, process = service.process): void {
    if (!process) return;
    mkdirSync(this.logDir, { recursive: true });
    appendFileSync(join(this.logDir, `${service.key}.log`), process.output());
  }

  private spawn(service: RigService): Promise<ServiceProcess> {
    // Long enough for a service restarted while PostgreSQL is away to wait it out.
    // Each service under a name of its own, as a pod's: restarted, it takes its leases back at once.
    const generation = service.generation ?? 0;
    const replica = generation === 0 ? service.key : `${service.key}-${generation}`;
    // Old and new replica run side by side in a rolling restart: the generations alternate ports.
    const port = service.port + (generation % 2) * 50;
    const env = { ...this.env, STUDIO_REPLICA_ID: replica, ...this.overrides[service.key] };
    return spawnService(service.binary, port, env, [], { readyTimeoutMs: 120_000 });
  }
}
