import { ClusterSummarySchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../api-client';
import { queryKeys } from '../query-keys';

const getClusters = () => getJson('/clusters', z.array(ClusterSummarySchema));

const clustersQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.clusters(), queryFn: getClusters, meta: { label: 'the cluster list' } });

export const useClusters = () => useQuery(clustersQueryOptions());
