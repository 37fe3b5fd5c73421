import { Injectable } from '@nestjs/common';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { keepAmqpTypes } from './amqp-types';
import { QueueExports } from './queue-exports';
import { importPart } from './queue-imports';

/**
 * A queue's messages exported as they are, and imported back (issue 60): read once over AMQP 1.0 by
 * the cluster's owner, each with its typed properties and whole body, a part at a time for the
 * gateway to stream; sent back over AMQP, typed as they were. Jolokia only finds the nodes holding
 * the queue; the messages never pass through management.
 */
@Injectable()
export class MessageExportPart implements ClusterPart<'queueExport' | 'queueImport'> {
  readonly serves = ['queueExport', 'queueImport'] as const;

  constructor(private readonly jolokia: JolokiaClient) {}

  async connect(): Promise<void> {
    keepAmqpTypes();
  }

  start(cluster: OwnedCluster): PartRun<'queueExport' | 'queueImport'> {
    const exports = new QueueExports(this.jolokia, cluster);
    return {
      handlers: {
        queueExport: (call) => exports.part(call),
        queueImport: (call) => importPart(this.jolokia, cluster, call),
      },
      stop: () => void exports.closeAll(),
    };
  }
}
