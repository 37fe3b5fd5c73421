import { Injectable } from '@nestjs/common';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import { JolokiaClient } from '../jolokia/jolokia-client';
import { readLiveList } from './read-live-list';

/** A cluster's live consumers, sessions and connections, read from its live nodes when asked. */
@Injectable()
export class LiveListsPart implements ClusterPart<'liveList'> {
  readonly serves = ['liveList'] as const;

  constructor(private readonly jolokia: JolokiaClient) {}

  start(cluster: OwnedCluster): PartRun<'liveList'> {
    return {
      handlers: {
        liveList: ({ kind, page, pageSize }) => readLiveList(cluster, this.jolokia, kind, page, pageSize),
      },
    };
  }
}
