import { Bus } from '@artemis-studio/bus';
import { buckets, channels, ownerRpcs, rpcs, subjects } from '@artemis-studio/contracts';
import { MessageJobQueries, SecretVault, rowsOf, type ClusterTarget } from '@artemis-studio/db';
import {
  BUS,
  DatabaseService,
  ClusterOwnership,
  type OwnedClusters,
  SettingsService,
  SignalPublisher,
  ownedClustersFor,
} from '@artemis-studio/platform';
import { Registry } from 'prom-client';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AlertCourier, type ReceiverTarget } from '../alerting/alert-courier';
import { AlertEvaluation } from '../alerting/alert-evaluation';
import { AlertMetrics } from '../alerting/alert-metrics';
import { AlertStore } from '../alerting/alert-store';
import { sendEmail } from '../alerting/email-sender';
import { studioFactsOf } from '../alerting/studio-facts';
import { FigureExportService } from '../export/figure-export.service';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { readLiveList } from '../live-lists/read-live-list';
import { ClusterPoller, type PollerDeps } from '../polling/cluster-poller';
import { PollMetrics } from '../polling/poll-metrics';
import { RING_OFF, RingKeeper, type RingKeeperDeps } from '../notification-rings/ring-keeper';
import { BrokerLanes } from '../broker-actions/broker-lanes';
import { QueueActions } from '../broker-actions/queue-actions';
import { QueueBrowser } from '../broker-actions/queue-browse';
import { BrokerChanges } from '../broker-actions/broker-changes';
import { DeadLetterGroupsReader } from '../message-jobs/dead-letter-groups';
import { MessageJobs } from '../message-jobs/message-jobs';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import { QueueSnapshotRepository } from '../queues/queue-snapshot.repository';
import { SCRAPER_CONFIG, type ScraperConfig } from '../scraper.config';
import { NodeStateRepository } from '../topology/node-state.repository';

/**
 * A cluster this replica polls: its poller, the owner RPCs it answers for it (ownerRpcs), the
 * message jobs it runs, told to stop between two batches when the cluster is let go, and the
 * courier of its alert notifications.
 */
class OwnedCluster {
  private readonly jobs = new AbortController();
  private readonly stopServing: () => void;
  constructor(
    readonly poller: ClusterPoller,
    readonly rings: RingKeeper,
    readonly courier: AlertCourier,
    /** Whether the registration wants the ring (ADR-0015): read by the ring keeper at every tick. */
    private readonly ring: { wanted: boolean },
    serve: (jobsStopped: AbortSignal) => () => void,
  ) {
    this.stopServing = serve(this.jobs.signal);
  }
  get target(): ClusterTarget {
    return this.poller.target;
  }
  /** The ring turned on or off for this cluster: the next tick makes or removes it, nothing restarts. */
  refresh(target: ClusterTarget): void {
    this.ring.wanted = target.notificationRing !== false;
  }
  stop(): void {
    this.poller.stop();
    this.courier.stop();
    this.stopServing();
    this.jobs.abort();
  }
}

/**
 * Which clusters this replica polls: a lease per cluster in `studio_leases`. Owning a cluster
 * means running its poller and answering its owner RPCs (live lists, queue actions), so live
 * reads and actions spend the same per-node call budget as polling.
 */
@Injectable()
export class PollerOwnershipService extends ClusterOwnership<OwnedCluster> {
  protected readonly logger = new Logger('Ownership');
  /** One management call at a time per broker (actions and browsing), across every cluster owned. */
  private readonly queueActions: QueueActions;
  private readonly queueBrowser: QueueBrowser;
  private readonly brokerChanges: BrokerChanges;
  private readonly deadLetters: DeadLetterGroupsReader;
  private readonly lanes = new BrokerLanes();

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(SCRAPER_CONFIG) private readonly config: ScraperConfig,
    private readonly database: DatabaseService,
    private readonly settings: SettingsService,
    private readonly jolokia: JolokiaClient,
    private readonly nodeStates: NodeStateRepository,
    private readonly queues: QueueSnapshotRepository,
    private readonly addresses: AddressSampleRepository,
    private readonly signals: SignalPublisher,
    private readonly metrics: PollMetrics,
    private readonly alertMetrics: AlertMetrics,
    private readonly figures: FigureExportService,
    registry: Registry,
  ) {
    super();
    this.exposeOwnership(registry);
    this.queueActions = new QueueActions(jolokia, this.lanes);
    this.queueBrowser = new QueueBrowser(jolokia, this.lanes);
    this.brokerChanges = new BrokerChanges(jolokia, this.lanes);
    this.deadLetters = new DeadLetterGroupsReader(jolokia, this.lanes);
  }

  protected async own(): Promise<OwnedClusters<OwnedCluster>> {
    const dataSource = await this.database.whenReady();
    await this.bus.ready();
    const liveNodes = await this.bus.kv(buckets.liveNodes);
    const capabilities = await this.bus.kv(buckets.capabilities);
    const leases = await this.bus.kv(buckets.leases);
    const intervals = () => ({
      tierAMs: this.settings.get('artemis-studio.scrape.tier-a-millis'),
      tierBMs: this.settings.get('artemis-studio.scrape.tier-b-millis'),
    });
    // An object logs its fields beside `msg` (nestjs-pino): a line can be found by cluster and node.
    const log = {
      warn: (msg: string, fields?: Record<string, unknown>) =>
        this.logger.warn(fields ? { ...fields, msg } : msg),
    };
    const couriers = new Map<string, AlertCourier>();
    const alerts = new AlertEvaluation({
      store: new AlertStore(dataSource),
      committed: (clusterId, transitions) => {
        if (transitions.length > 0) this.signals.signal(clusterId, 'alerts');
        couriers.get(clusterId)?.kick();
      },
      intervals,
      studioFacts: (clusterId) => studioFactsOf(dataSource, capabilities, leases, clusterId),
      addressHistory: (clusterId, since, until) => this.addresses.sizesBetween(clusterId, since, until),
      diskHistory: (clusterId, since, until) => this.nodeStates.diskUsageBetween(clusterId, since, until),
      log,
    });
    const deps: PollerDeps = {
      jolokia: this.jolokia,
      nodeStates: this.nodeStates,
      queues: this.queues,
      addresses: this.addresses,
      liveNodes,
      observers: {
        afterNodes: async (target, nodes, now) => {
          this.figures.nodes(target.id, target.name, nodes);
          await alerts.afterNodes(target, nodes, now);
        },
        afterQueues: async (target, now, read) => {
          this.figures.queues(target.id, target.name, read);
          await alerts.afterQueues(target, now, read);
        },
      },
      signal: (clusterId, topic) => this.signals.signal(clusterId, topic),
      pollFailed: (cluster, node, kind) => this.metrics.pollFailed(cluster, node, kind),
      intervals,
      log,
    };
    const vault = SecretVault.fromBase64(this.config.secretKey);
    const courierFor = (clusterId: string) =>
      new AlertCourier(clusterId, {
        db: dataSource,
        receivers: async (id, ids) => {
          const rows = await rowsOf<{
            id: string;
            kind: ReceiverTarget['kind'];
            url: string;
            sealed: Buffer | null;
            email: ReceiverTarget['email'];
          }>(
            dataSource,
            `SELECT id, kind, url, email, sealed_secret AS sealed FROM alert_receiver
              WHERE cluster_id = $1 AND enabled AND id = ANY ($2::uuid[])`,
            [id, [...new Set(ids)]],
          );
          return new Map(
            rows.map((r) => [
              r.id,
              {
                id: r.id,
                kind: r.kind,
                url: r.url,
                secret: r.sealed && vault.open(r.sealed, r.id, 'RECEIVER'),
                email: r.email,
              },
            ]),
          );
        },
        publish: async (id, state, at, alert) => {
          if (
            !this.bus.publish(channels.alert, subjects.alert(id, state), {
              state,
              at: at.toISOString(),
              alert,
            })
          )
            throw new Error('NATS is not connected');
          await this.bus.flush();
        },
        post: fetch,
        mail: (receiver, message) => {
          if (!receiver.email) throw new Error(`receiver ${receiver.id} has no email settings`);
          return sendEmail(receiver.url, receiver.email, receiver.secret, message, this.config.smtpCa);
        },
        delivered: (outcome) => this.alertMetrics.delivered(outcome),
        log: this.logger,
      });
    const ringDeps: RingKeeperDeps = {
      jolokia: this.jolokia,
      lanes: this.lanes,
      size: () => this.settings.get('artemis-studio.notifications.ring-size'),
      reportDrops: (report) => this.bus.request(rpcs.recordDrops, report),
      log,
    };
    const jobRecords = new MessageJobQueries(dataSource);
    const messageJobs = new MessageJobs({
      jolokia: this.jolokia,
      lanes: this.lanes,
      store: jobRecords,
      signal: (clusterId) => this.signals.signal(clusterId, 'jobs'),
      log: this.logger,
    });
    return ownedClustersFor({
      bus: this.bus,
      dataSource,
      service: 'scraper',
      owner: this.owner,
      secretKey: this.config.secretKey,
      leaseTtlMs: this.config.leaseTtlMs,
      start: (target) => {
        const ring = { wanted: target.notificationRing !== false };
        const rings = new RingKeeper(
          target.id,
          {
            ...ringDeps,
            size: () => (ring.wanted ? ringDeps.size() : 0),
            offReason: () => (ring.wanted ? RING_OFF.setting : RING_OFF.cluster),
          },
          async () => (await liveNodes.get(target.id))?.value ?? null,
        );
        const poller = new ClusterPoller(target, { ...deps, rings });
        const courier = courierFor(target.id);
        couriers.set(target.id, courier);
        const owned = new OwnedCluster(poller, rings, courier, ring, (jobsStopped) =>
          // Jobs left running by the replica that held this cluster before end here, before this
          // one serves: a job started here meanwhile would otherwise be declared interrupted too.
          this.afterward(
            jobRecords
              .interruptRunning(target.id, 'the replica running it stopped before it ended')
              .then((jobs) => jobs.length > 0 && this.signals.signal(target.id, 'jobs'))
              .catch((err: Error) => this.logger.warn(`interrupted jobs not recorded: ${err.message}`)),
            () =>
              this.bus.serveKeyed(
                ownerRpcs,
                {
                  liveList: (request) =>
                    readLiveList(poller, this.jolokia, request.kind, request.page, request.pageSize),
                  queueAction: (call) => this.queueActions.run(poller, call),
                  queueBrowse: (call) => this.queueBrowser.page(poller, call),
                  brokerChange: (call) => this.brokerChanges.run(poller, call),
                  messageJobStart: (call) => messageJobs.start(poller, call, jobsStopped),
                  messageJobImpact: (call) => messageJobs.impact(poller, call),
                  deadLetterGroups: (call) => this.deadLetters.read(poller, call),
                  alertRuleTest: ({ rule }) => alerts.test(target.id, rule, new Date()),
                },
                target.id,
              ),
          ),
        );
        poller.start();
        courier.start();
        return owned;
      },
      // A deleted cluster has no live nodes; one merely handed over keeps its set for the new owner.
      released: async (clusterId, deleted, owned) => {
        couriers.delete(clusterId);
        alerts.forget(clusterId);
        this.figures.forget(clusterId);
        if (!deleted) return;
        await liveNodes.delete(clusterId).catch(() => undefined);
        // Not awaited: it waits for the notifier to let go, and the leases must be renewed meanwhile.
        void owned.rings.remove(
          owned.poller.liveNodes().flatMap((n) => {
            const broker = owned.poller.brokerName(n.id);
            return broker ? [{ name: n.name, broker, target: owned.poller.jolokiaTarget(n) }] : [];
          }),
        );
      },
      log: this.logger,
    });
  }

  /**
   * Starts serving once `first` has settled; the stop it answers stops the serving, or prevents it
   * when the cluster is let go before `first` settles.
   */
  private afterward(first: Promise<unknown>, serve: () => () => void): () => void {
    let stopServing: (() => void) | null = null;
    let stopped = false;
    void first.finally(() => {
      if (!stopped) stopServing = serve();
    });
    return () => {
      stopped = true;
      stopServing?.();
    };
  }
}
