import { ClusterLinksSchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const clusterLinksQueryOptions = (clusterId: string) =>
  queryOptions({
    queryKey: queryKeys.clusterLinks(clusterId),
    queryFn: () => getJson(`/clusters/${clusterId}/cluster-links`, ClusterLinksSchema),
    meta: { label: 'the cluster connections' },
  });

/** The cluster as its brokers see it, and the messages it leaves stranded (refetched with the queues). */
export const useClusterLinks = (clusterId: string) => useQuery(clusterLinksQueryOptions(clusterId));
