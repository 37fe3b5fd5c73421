import { ClusterSummarySchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '../../../lib/api-client';

export const getClusters = () => getJson('/clusters', z.array(ClusterSummarySchema));

export const clustersQueryOptions = () => queryOptions({ queryKey: ['clusters'], queryFn: getClusters });

export const useClusters = () => useQuery(clustersQueryOptions());
