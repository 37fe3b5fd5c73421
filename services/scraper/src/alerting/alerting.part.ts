import { Bus } from '@artemis-studio/bus';
import { QueueHourQueries } from '@artemis-studio/db';
import { buckets } from '@artemis-studio/contracts';
import { BUS, DatabaseService, SettingsService, SignalPublisher } from '@artemis-studio/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AddressSampleRepository } from '../addresses/address-sample.repository';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import type { NodeFact, ObservedCluster, TickObserver, TierBRead } from '../polling/tick-observer';
import { NodeStateRepository } from '../topology/node-state.repository';
import { AlertCouriers } from './delivery/alert-couriers';
import { AlertEvaluation } from './evaluation/alert-evaluation';
import { scopeEvaluationDeps } from './evaluation/scope-evaluation-deps';
import { StudioFactsQueries } from './evaluation/studio-facts.queries';

/**
 * Alerting for each owned cluster (ADR-0013): its rules evaluated after each tick, where the
 * figures are; its notifications delivered from the outbox by its courier; a draft rule read
 * against the last figures (the `alertRuleTest` owner RPC).
 */
@Injectable()
export class AlertingPart implements ClusterPart<'alertRuleTest'>, TickObserver {
  readonly serves = ['alertRuleTest'] as const;
  private readonly logger = new Logger('Alerting');
  private evaluation?: AlertEvaluation;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly database: DatabaseService,
    private readonly settings: SettingsService,
    private readonly signals: SignalPublisher,
    private readonly addresses: AddressSampleRepository,
    private readonly nodeStates: NodeStateRepository,
    private readonly couriers: AlertCouriers,
  ) {}

  async connect(): Promise<void> {
    const db = await this.database.whenReady();
    const queueHours = new QueueHourQueries(db);
    const studioFacts = new StudioFactsQueries(
      db,
      await this.bus.kv(buckets.capabilities),
      await this.bus.kv(buckets.leases),
    );
    this.evaluation = new AlertEvaluation({
      ...scopeEvaluationDeps(db, {
        settings: this.settings,
        signals: this.signals,
        couriers: this.couriers,
        logger: this.logger,
      }),
      studioFacts: (clusterId) => studioFacts.of(clusterId),
      addressHistory: (clusterId, since, until) => this.addresses.sizesBetween(clusterId, since, until),
      diskHistory: (clusterId, since, until) => this.nodeStates.diskUsageBetween(clusterId, since, until),
      queueBaselines: (clusterId, atMs) => queueHours.baselines(clusterId, atMs),
    });
    await this.couriers.connect();
  }

  start(cluster: OwnedCluster): PartRun<'alertRuleTest'> {
    const clusterId = cluster.target.id;
    const evaluation = this.evaluation!;
    this.couriers.hold(clusterId, 'owner');
    return {
      handlers: { alertRuleTest: ({ rule }) => evaluation.test(clusterId, rule, new Date()) },
      stop: () => this.couriers.release(clusterId, 'owner'),
      released: () => evaluation.forget(clusterId),
    };
  }

  async afterNodes(cluster: ObservedCluster, nodes: readonly NodeFact[], now: Date): Promise<void> {
    await this.evaluation?.afterNodes(cluster, nodes, now);
  }

  async afterQueues(cluster: ObservedCluster, now: Date, read: TierBRead): Promise<void> {
    await this.evaluation?.afterQueues(cluster, now, read);
  }
}
