import { SettingsService } from '@artemis-studio/platform';
import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Registry } from 'prom-client';
import type { NodeFact } from '../alerting/conditions';
import type { NodeQueues } from '../alerting/queue-facts';
import { exportedQueues, type ClusterFigures, type ExportedQueue } from './figure-export';

type QueueFigure = Exclude<keyof ExportedQueue, 'name'>;

/**
 * The figures of the clusters this replica owns, on its `/metrics` for teams who alert in
 * Prometheus: each queue (summed over its nodes, the deepest N per cluster) and each node, as the
 * last ticks read them. Only the owner exports a cluster, so no series is doubled across replicas.
 */
@Injectable()
export class FigureExportService {
  private readonly clusters = new Map<string, ClusterFigures>();
  /** The queues to export per cluster, worked out at the first collect after a tick. */
  private readonly exported = new Map<string, { queues: ExportedQueue[]; left: number }>();

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
            for (const q of this.queuesOf(id, figures)) {
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
    const left = new Gauge({
      name: 'studio_queues_not_exported',
      help: 'Queues of the cluster left out of the queue series (artemis-studio.metrics.queues-per-cluster: the deepest are kept)',
      labelNames: ['cluster'],
      registers: [registry],
      collect: () => {
        left.reset();
        for (const [id, figures] of this.clusters) {
          this.queuesOf(id, figures);
          left.set({ cluster: figures.clusterName }, this.exported.get(id)?.left ?? 0);
        }
      },
    });
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

  nodes(clusterId: string, clusterName: string, nodes: readonly NodeFact[]): void {
    this.clusters.set(clusterId, {
      clusterName,
      nodes,
      queues: this.clusters.get(clusterId)?.queues ?? null,
    });
  }

  /** A tick's reads; null when a node could not be read (the last complete read stays). */
  queues(clusterId: string, clusterName: string, read: readonly NodeQueues[] | null): void {
    if (read === null) return;
    this.clusters.set(clusterId, {
      clusterName,
      nodes: this.clusters.get(clusterId)?.nodes ?? [],
      queues: read,
    });
    this.exported.delete(clusterId);
  }

  /** Let go of, or deleted: its series go with it. */
  forget(clusterId: string): void {
    this.clusters.delete(clusterId);
    this.exported.delete(clusterId);
  }

  private queuesOf(clusterId: string, figures: ClusterFigures): ExportedQueue[] {
    if (!figures.queues) return [];
    let exported = this.exported.get(clusterId);
    if (!exported) {
      exported = exportedQueues(
        figures.queues,
        this.settings.get('artemis-studio.metrics.queues-per-cluster'),
        new Date(),
      );
      this.exported.set(clusterId, exported);
    }
    return exported.queues;
  }
}
