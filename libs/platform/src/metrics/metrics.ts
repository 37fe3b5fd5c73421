import type { BusMetrics } from '@artemis-studio/bus';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { Ownership } from '../leases/cluster-work';

const LOOP_DELAY_RESOLUTION_MS = 50;

/** One Prometheus registry per service, with the process metrics and the bus's counters. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // The event loop's delay histogram wakes the process at this interval. prom-client's 10 ms woke
  // every service 100 times a second doing nothing: a fifth to a third of an idle service's CPU
  // (docs/benchmarks.md, broker-to-browser). At 50 ms a stall of 50 ms or more is still seen.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: LOOP_DELAY_RESOLUTION_MS });
  return registry;
}

export function busMetrics(registry: Registry): BusMetrics {
  const malformed = new Counter({
    name: 'studio_bus_malformed_messages_total',
    help: 'Messages received that failed their schema, counted and skipped',
    labelNames: ['channel'],
    registers: [registry],
  });
  const failed = new Counter({
    name: 'studio_bus_handler_failures_total',
    help: 'Valid messages whose handler threw',
    labelNames: ['channel'],
    registers: [registry],
  });
  const dropped = new Counter({
    name: 'studio_bus_publish_dropped_total',
    help: 'Core NATS publishes that could not be handed to the client',
    labelNames: ['channel'],
    registers: [registry],
  });
  const pullsGivenUp = new Counter({
    name: 'studio_bus_pulls_given_up_total',
    help: "Silences in which a durable consumer's pulls went unanswered past their expiry and were pulled again (nothing was delivered meanwhile)",
    labelNames: ['consumer'],
    registers: [registry],
  });
  return {
    malformed: (channel) => malformed.inc({ channel }),
    handlerFailed: (channel) => failed.inc({ channel }),
    publishDropped: (channel) => dropped.inc({ channel }),
    pullsGivenUp: (consumer) => pullsGivenUp.inc({ consumer }),
  };
}

/** What one replica owns, read at each scrape: per replica on /metrics, as issue 32 asks. */
export function ownershipMetrics(registry: Registry, read: () => Ownership | undefined): void {
  const gauge = (name: string, help: string, pick: (o: Ownership) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(pick(read() ?? { clusters: 0, weight: 0, members: 0 }));
      },
    });
  gauge('studio_owned_clusters', 'Clusters this replica owns now', (o) => o.clusters);
  gauge(
    'studio_owned_weight',
    'Summed weight of the clusters this replica owns: their nodes plus their queues',
    (o) => o.weight,
  );
  gauge(
    'studio_live_replicas',
    'Live replicas of this service, this one included, as last read from studio_members',
    (o) => o.members,
  );
}
