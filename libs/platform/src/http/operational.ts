import { SetMetadata } from '@nestjs/common';

/**
 * Marks /healthz, /readyz and /metrics: what an orchestrator and Prometheus call without a
 * session. A service that guards its routes (the gateway) lets these through and nothing else.
 */
export const OPERATIONAL_ENDPOINT = 'studio:operational-endpoint';
export const OperationalEndpoint = () => SetMetadata(OPERATIONAL_ENDPOINT, true);
