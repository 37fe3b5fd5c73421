import { Injectable } from '@nestjs/common';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { BrokerLanes } from '../jolokia/broker-lanes';
import { QueueBrowser } from '../broker-actions/queue-browse';
import { BodyBrowser } from '../body-filters/body-browse';
import { keepAmqpTypes } from './amqp-types';
import { QueueExports } from './queue-exports';
import { importPart } from './queue-imports';

/**
 * A queue's messages browsed, exported as they are, and imported back (issue 60). A browse is a
 * page of the broker's management `browse`, or, with a body filter, the queue read once over AMQP
 * 1.0 by the owner and the matches then browsed by id (ADR-0038). An export reads the queue once
 * over AMQP, each message with its typed properties and whole body, a part at a time for the
 * gateway to stream; an import sends them back over AMQP, typed as they were.
 */
@Injectable()
export class MessageExportPart implements ClusterPart<'queueBrowse' | 'queueExport' | 'queueImport'> {
  readonly serves = ['queueBrowse', 'queueExport', 'queueImport'] as const;
  private readonly queueBrowser: QueueBrowser;
  private readonly bodyBrowser: BodyBrowser;

  constructor(
    private readonly jolokia: JolokiaClient,
    lanes: BrokerLanes,
  ) {
    this.queueBrowser = new QueueBrowser(jolokia, lanes);
    this.bodyBrowser = new BodyBrowser(jolokia, lanes);
  }

  async connect(): Promise<void> {
    keepAmqpTypes();
  }

  start(cluster: OwnedCluster): PartRun<'queueBrowse' | 'queueExport' | 'queueImport'> {
    const exports = new QueueExports(this.jolokia, cluster);
    return {
      handlers: {
        queueBrowse: (call) =>
          call.body ? this.bodyBrowser.page(cluster, call) : this.queueBrowser.page(cluster, call),
        queueExport: (call) => exports.part(call),
        queueImport: (call) => importPart(this.jolokia, cluster, call),
      },
      stop: () => void exports.closeAll(),
    };
  }
}
