import { DatabaseService, SignalPublisher } from '@artemis-studio/platform';
import { MessageJobRepository } from '@artemis-studio/db';
import { Injectable, Logger } from '@nestjs/common';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import { BrokerLanes } from '../jolokia/broker-lanes';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { DeadLetterGroupsReader } from './dead-letter-groups';
import { MessageJobs } from './message-jobs';

type Served = 'messageJobStart' | 'messageJobResume' | 'messageJobImpact' | 'deadLetterGroups';

/**
 * A cluster's message jobs (ADR-0012) and the dead-letter groups they redrive. The jobs a previous
 * owner left running are declared interrupted before this replica serves the cluster, and the jobs
 * running here stop between two batches when it lets the cluster go.
 */
@Injectable()
export class MessageJobsPart implements ClusterPart<Served> {
  readonly serves = ['messageJobStart', 'messageJobResume', 'messageJobImpact', 'deadLetterGroups'] as const;
  private readonly logger = new Logger('MessageJobs');
  private readonly deadLetters: DeadLetterGroupsReader;
  private jobs?: MessageJobs;
  private records?: MessageJobRepository;

  constructor(
    private readonly jolokia: JolokiaClient,
    private readonly lanes: BrokerLanes,
    private readonly database: DatabaseService,
    private readonly signals: SignalPublisher,
  ) {
    this.deadLetters = new DeadLetterGroupsReader(jolokia, lanes);
  }

  async connect(): Promise<void> {
    this.records = new MessageJobRepository(await this.database.whenReady());
    this.jobs = new MessageJobs({
      jolokia: this.jolokia,
      lanes: this.lanes,
      store: this.records,
      signal: (clusterId) => this.signals.signal(clusterId, 'jobs'),
      log: this.logger,
    });
  }

  start(cluster: OwnedCluster): PartRun<Served> {
    const clusterId = cluster.target.id;
    const jobs = this.jobs!;
    return {
      ready: this.records!.interruptRunning(clusterId, 'the replica running it stopped before it ended')
        .then((interrupted) => interrupted.length > 0 && this.signals.signal(clusterId, 'jobs'))
        .catch((err: Error) => this.logger.warn(`interrupted jobs not recorded: ${err.message}`)),
      handlers: {
        messageJobStart: (call) => jobs.start(cluster, call, cluster.stopped),
        messageJobResume: (call) => jobs.resume(cluster, call, cluster.stopped),
        messageJobImpact: (call) => jobs.impact(cluster, call),
        deadLetterGroups: (call) => this.deadLetters.read(cluster, call),
      },
    };
  }
}
