import { NatsBus } from '@artemis-studio/bus';
import { EVENTS_STREAM } from '@artemis-studio/contracts';
import { Logger } from '@nestjs/common';
import type { Registry } from 'prom-client';
import type { ServiceConfig } from '../config/service-config';
import type { ReadinessCheck } from '../health/readiness';
import { busMetrics } from '../metrics/metrics';

/** Injection token of the service's `Bus`. */
export const BUS = Symbol('BUS');

export function createBus(config: ServiceConfig, registry: Registry): NatsBus {
  const logger = new Logger('Bus');
  return new NatsBus({
    servers: config.natsUrl,
    auth: config.natsAuth,
    name: config.service,
    metrics: busMetrics(registry),
    log: { warn: (m) => logger.warn(m), error: (m) => logger.error(m) },
    streamLimits: { [EVENTS_STREAM]: config.eventsStream },
    replicas: config.natsReplicas,
  });
}

export function busReadiness(bus: NatsBus): ReadinessCheck {
  return {
    name: 'bus',
    check: async () => ({ ok: bus.state === 'connected', detail: bus.state }),
  };
}
