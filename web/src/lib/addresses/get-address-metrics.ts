import { AddressMetricsResponseSchema } from '@artemis-studio/contracts';
import { getJson } from '../api-client';

export function getAddressMetrics(
  clusterId: string,
  address: string,
  from: number,
  to: number,
  stepMs?: number,
) {
  const query = new URLSearchParams({ from: new Date(from).toISOString(), to: new Date(to).toISOString() });
  if (stepMs) query.set('step', String(stepMs));
  return getJson(
    `/clusters/${clusterId}/addresses/${encodeURIComponent(address)}/metrics?${query.toString()}`,
    AddressMetricsResponseSchema,
  );
}
