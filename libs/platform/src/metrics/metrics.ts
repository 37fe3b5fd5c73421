import type { BusMetrics } from '@artemis-studio/bus';
import { Counter, Registry, collectDefaultMetrics } from 'prom-client';

/** One Prometheus registry per service, with the process metrics and the bus's counters. */
export function createRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
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
  return {
    malformed: (channel) => malformed.inc({ channel }),
    handlerFailed: (channel) => failed.inc({ channel }),
    publishDropped: (channel) => dropped.inc({ channel }),
  };
}
