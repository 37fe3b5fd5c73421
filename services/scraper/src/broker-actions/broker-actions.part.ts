import { Injectable } from '@nestjs/common';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import { BrokerLanes } from '../jolokia/broker-lanes';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { BrokerChanges } from './broker-changes';
import { QueueActions } from './queue-actions';

/**
 * Acting on a cluster's brokers (ADR-0011): queue actions, making and removing queues and
 * addresses, sending a message (browsing is served with the body filters, MessageExportPart). Every management call waits its turn in the broker's
 * lane, across every cluster this replica owns.
 */
@Injectable()
export class BrokerActionsPart implements ClusterPart<'queueAction' | 'brokerChange'> {
  readonly serves = ['queueAction', 'brokerChange'] as const;
  private readonly queueActions: QueueActions;
  private readonly brokerChanges: BrokerChanges;

  constructor(jolokia: JolokiaClient, lanes: BrokerLanes) {
    this.queueActions = new QueueActions(jolokia, lanes);
    this.brokerChanges = new BrokerChanges(jolokia, lanes);
  }

  start(cluster: OwnedCluster): PartRun<'queueAction' | 'brokerChange'> {
    return {
      handlers: {
        queueAction: (call) => this.queueActions.run(cluster, call),
        brokerChange: (call) => this.brokerChanges.run(cluster, call),
      },
    };
  }
}
