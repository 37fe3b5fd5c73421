import { TopologySchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const getTopology = (clusterId: string) => getJson(`/clusters/${clusterId}/topology`, TopologySchema);

const topologyQueryOptions = (clusterId: string) =>
  queryOptions({
    queryKey: queryKeys.topology(clusterId),
    queryFn: () => getTopology(clusterId),
    meta: { label: 'the topology' },
  });

export const useTopology = (clusterId: string) => useQuery(topologyQueryOptions(clusterId));
