import type { ClusterTarget } from '@artemis-studio/db';
import { OwnedCluster } from '../cluster-parts/owned-cluster';
import { JolokiaError, type JolokiaResponse } from '../jolokia/jolokia-client';
import type { PollerDeps } from './cluster-poller';

/** What the poller tests share: one node, its scripted answers, deps that store nothing. */
export const TICK_MS = 1000;

const target: ClusterTarget = {
  id: 'c1',
  name: 'prod',
  revision: '1',
  jolokiaOrigin: null,
  nodes: [{ id: 'n1', name: 'primary', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia', amqpUrl: null }],
  credentials: {},
  credentialError: null,
} as unknown as ClusterTarget;

const broker = (active: boolean): JolokiaResponse[] => [
  {
    status: 200,
    value: {
      'org.apache.activemq.artemis:broker="primary"': { Name: 'primary', Active: active, NodeID: 'b1' },
    },
  } as unknown as JolokiaResponse,
];
export const liveBroker = broker(true);
export const backupBroker = broker(false);
export const noMBean = { status: 200, value: {} } as unknown as JolokiaResponse;

export const refused = () => {
  throw new JolokiaError('unreachable', 'http://127.0.0.1:1 unreachable: ECONNREFUSED');
};

/** The owned cluster a poller reports to, as ownership makes it. */
export const ownedCluster = () => new OwnedCluster(target, new AbortController().signal);

/** Deps that answer nothing and store nothing; a test gives what it scripts. */
export function pollerDeps(over: Partial<PollerDeps> = {}): PollerDeps {
  return {
    jolokia: {
      bulk: async () => {
        throw new Error('no answer scripted');
      },
    },
    nodeStates: { load: async () => [], save: async () => true },
    queues: {
      sync: async () => ({ changed: 0, removed: 0, sampled: 0, storedMissing: 0 }),
      clearNode: async () => 0,
    },
    addresses: { record: async () => undefined, openSamples: async () => [] },
    liveNodes: { put: async () => 1 },
    observers: [],
    signal: () => undefined,
    pollFailed: () => undefined,
    intervals: () => ({ tierAMs: TICK_MS, tierBMs: 5000 }),
    log: { warn: () => undefined },
    ...over,
  };
}
