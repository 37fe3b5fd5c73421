import { useMetricsWindow } from '../metrics/use-metrics-window';
import { queryKeys } from '../query-keys';
import { getAddressMetrics } from './get-address-metrics';

/** An address's chart window, sliding with the tier-B ticks that sample it. */
export function useAddressMetrics(clusterId: string, address: string, rangeMs: number) {
  return useMetricsWindow({
    clusterId,
    queryKey: queryKeys.addressMetrics(clusterId, address, { rangeMs }),
    rangeMs,
    read: (from, to, stepMs) => getAddressMetrics(clusterId, address, from, to, stepMs),
    label: "the address's charts",
  });
}
