import { MetricsResponseSchema } from '@artemis-studio/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** The cluster's depth and rates over the last `rangeMs`, per node and in total. */
const clusterMetricsQueryOptions = (clusterId: string, rangeMs: number) =>
  queryOptions({
    queryKey: queryKeys.clusterMetrics(clusterId, { rangeMs }),
    queryFn: () => {
      const to = Date.now();
      const query = new URLSearchParams({
        from: new Date(to - rangeMs).toISOString(),
        to: new Date(to).toISOString(),
      });
      return getJson(`/clusters/${clusterId}/metrics?${query.toString()}`, MetricsResponseSchema);
    },
    placeholderData: keepPreviousData,
    meta: {
      label: 'the cluster charts',
      // Connections are sampled at each tier-A tick, which signals nothing when only a count moved:
      // without this, a live console shows the connection sparklines as of the last queue change.
      refreshWhileLiveMs: 30_000,
    },
  });

export const useClusterMetrics = (clusterId: string, rangeMs: number) =>
  useQuery(clusterMetricsQueryOptions(clusterId, rangeMs));
