import { ClusterDetailSchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** The registration and the cached notification verdict (never a live probe of the broker). */
const getCluster = (clusterId: string) => getJson(`/clusters/${clusterId}`, ClusterDetailSchema);

const clusterQueryOptions = (clusterId: string) =>
  queryOptions({
    queryKey: queryKeys.clusterDetail(clusterId),
    queryFn: () => getCluster(clusterId),
    meta: { label: 'the cluster' },
  });

export const useCluster = (clusterId: string) => useQuery(clusterQueryOptions(clusterId));
