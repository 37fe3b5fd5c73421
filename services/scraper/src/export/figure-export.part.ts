import { SettingsService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import type { ClusterPart, PartRun } from '../cluster-parts/cluster-part';
import type { OwnedCluster } from '../cluster-parts/owned-cluster';
import {
  nodesRead,
  type NodeFact,
  type ObservedCluster,
  type TickObserver,
  type TierBRead,
} from '../polling/tick-observer';
import {
  exportedAddresses,
  exportedQueues,
  type ClusterFigures,
  type ExportedAddress,
  type ExportedQueue,
} from './figure-export';

type QueueFigure = Exclude<keyof ExportedQueue, 'name'>;
type AddressFigure = Exclude<keyof ExportedAddress, 'name'>;

/** What one cluster exports until its next tick: worked out once, at the first collect after it. */
interface Exported {
  queues: ExportedQueue[];
  queuesLeft: number;
  addresses: ExportedAddress[];
  addressesLeft: number;
}

/**
 * The figures of the clusters this replica owns, on its `/metrics` for teams who alert in
 * Prometheus: each queue (summed over its nodes, the deepest N per cluster) and each node, as the
 * last ticks read them. Only the owner exports a cluster, so no series is doubled across replicas:
 * a cluster let go of takes its series with it.
 */
@Injectable()
export class FigureExportPart implements ClusterPart, TickObserver {
  readonly serves = [] as const;
  private readonly clusters = new Map<string, ClusterFigures>();
  private readonly exported = new Map<string, Exported>();

  constructor(
    registry: Registry,
    private readonly settings: SettingsService,
  ) {
    const perQueue = (
      name: string,
      help: string,
      figure: QueueFigure,
      Metric: typeof Gauge | typeof Counter = Gauge,
    ) => {
      const metric: Gauge<'cluster' | 'queue'> | Counter<'cluster' | 'queue'> = new Metric({
        name,
        help,
        labelNames: ['cluster', 'queue'],
        registers: [registry],
        collect: () => {
          metric.reset();
          for (const [id, figures] of this.clusters)
            for (const q of this.exportOf(id, figures).queues) {
              const value = q[figure];
              if (value === null) continue;
              const labels = { cluster: figures.clusterName, queue: q.name };
              if (metric instanceof Gauge) metric.set(labels, value);
              else metric.inc(labels, value);
            }
        },
      });
    };
    perQueue(
      'studio_queue_messages',
      'Messages waiting in the queue, summed over its live nodes',
      'messages',
    );
    perQueue('studio_queue_consumers', 'Consumers attached to the queue', 'consumers');
    perQueue(
      'studio_queue_delivering',
      'Messages in delivery to consumers, not yet acknowledged',
      'delivering',
    );
    perQueue(
      'studio_queue_oldest_message_age_seconds',
      'How long the oldest waiting message has waited (absent when empty or unknown)',
      'oldestAgeSeconds',
    );
    const counted = (what: string) =>
      `Messages ${what}, as the brokers count them (from zero again after a broker restart)`;
    perQueue('studio_queue_messages_added_total', counted('added'), 'added', Counter);
    perQueue('studio_queue_messages_acknowledged_total', counted('acknowledged'), 'acknowledged', Counter);
    perQueue('studio_queue_messages_killed_total', counted('dead-lettered'), 'killed', Counter);
    perQueue('studio_queue_messages_expired_total', counted('expired'), 'expired', Counter);
    const perAddress = (name: string, help: string, figure: AddressFigure) => {
      const gauge = new Gauge({
        name,
        help,
        labelNames: ['cluster', 'address'],
        registers: [registry],
        collect: () => {
          gauge.reset();
          for (const [id, figures] of this.clusters)
            for (const a of this.exportOf(id, figures).addresses) {
              const value = a[figure];
              if (value !== null) gauge.set({ cluster: figures.clusterName, address: a.name }, value);
            }
        },
      });
    };
    perAddress(
      'studio_address_size_bytes',
      'Bytes the address holds in memory, summed over its live nodes',
      'sizeBytes',
    );
    perAddress('studio_address_paging', '1 when the address pages on any live node', 'paging');
    perAddress('studio_address_pages', 'Page files of the address, summed over its live nodes', 'pages');
    perAddress(
      'studio_address_limit_ratio',
      "The fullest node's address size against its max-size-bytes (0 without one; 1 and above once full)",
      'limitRatio',
    );
    const notExported = (name: string, what: string, left: (e: Exported) => number) => {
      const gauge = new Gauge({
        name,
        help: `${what} of the cluster left out of their series (artemis-studio.metrics.queues-per-cluster: the largest are kept)`,
        labelNames: ['cluster'],
        registers: [registry],
        collect: () => {
          gauge.reset();
          for (const [id, figures] of this.clusters)
            gauge.set({ cluster: figures.clusterName }, left(this.exportOf(id, figures)));
        },
      });
    };
    notExported('studio_queues_not_exported', 'Queues', (e) => e.queuesLeft);
    notExported('studio_addresses_not_exported', 'Addresses', (e) => e.addressesLeft);
    const perNode = (name: string, help: string, value: (n: NodeFact) => number | null) => {
      const gauge = new Gauge({
        name,
        help,
        labelNames: ['cluster', 'node'],
        registers: [registry],
        collect: () => {
          gauge.reset();
          for (const figures of this.clusters.values())
            for (const node of figures.nodes) {
              const v = value(node);
              if (v !== null) gauge.set({ cluster: figures.clusterName, node: node.name }, v);
            }
        },
      });
    };
    perNode('studio_node_up', '1 when the node answers its polls', (n) => (n.reachable ? 1 : 0));
    perNode('studio_node_live', '1 when the node is the live (active) broker', (n) =>
      n.role === 'live' ? 1 : 0,
    );
    perNode(
      'studio_node_backup_in_sync',
      '1 when a backup is in sync with its live node (backups only)',
      (n) => (n.role === 'backup' && n.replicaSync !== null ? (n.replicaSync ? 1 : 0) : null),
    );
    perNode('studio_node_disk_usage_ratio', "The journal disk's usage, 0 to 1", (n) => n.diskUsage);
    perNode('studio_node_address_memory_ratio', 'Address memory against the global limit, 0 to 1', (n) =>
      n.memoryBytes !== null && n.memoryLimitBytes !== null && n.memoryLimitBytes > 0
        ? n.memoryBytes / n.memoryLimitBytes
        : null,
    );
  }

  start(cluster: OwnedCluster): PartRun {
    return { released: () => this.forget(cluster.target.id) };
  }

  afterNodes(cluster: ObservedCluster, nodes: readonly NodeFact[]): void {
    const before = this.clusters.get(cluster.id);
    this.clusters.set(cluster.id, {
      clusterName: cluster.name,
      nodes,
      queues: before?.queues ?? null,
      addresses: before?.addresses ?? null,
    });
  }

  /**
   * A tick's reads, unless a node could not be read. The last complete read stays: of queues, and
   * of addresses (a sum missing a node's would be wrong).
   */
  afterQueues(cluster: ObservedCluster, _now: Date, tick: TierBRead): void {
    const read = nodesRead(tick);
    if (read === null) return;
    const before = this.clusters.get(cluster.id);
    const addresses = read.map((n) => n.addresses);
    this.clusters.set(cluster.id, {
      clusterName: cluster.name,
      nodes: before?.nodes ?? [],
      queues: read,
      addresses: addresses.every((a) => a !== null) ? addresses : (before?.addresses ?? null),
    });
    this.exported.delete(cluster.id);
  }

  private forget(clusterId: string): void {
    this.clusters.delete(clusterId);
    this.exported.delete(clusterId);
  }

  private exportOf(clusterId: string, figures: ClusterFigures): Exported {
    let exported = this.exported.get(clusterId);
    if (!exported) {
      const cap = this.settings.get('artemis-studio.metrics.queues-per-cluster');
      const queues = figures.queues
        ? exportedQueues(figures.queues, cap, new Date())
        : { queues: [], left: 0 };
      const addresses = figures.addresses
        ? exportedAddresses(figures.addresses, cap)
        : { addresses: [], left: 0 };
      exported = {
        queues: queues.queues,
        queuesLeft: queues.left,
        addresses: addresses.addresses,
        addressesLeft: addresses.left,
      };
      this.exported.set(clusterId, exported);
    }
    return exported;
  }
}
