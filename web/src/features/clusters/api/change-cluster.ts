import {
  ClusterSummarySchema,
  type CreateClusterRequest,
  type UpdateClusterRequest,
} from '@artemis-studio/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const registerCluster = (request: CreateClusterRequest) =>
  sendJson('POST', '/clusters', request, ClusterSummarySchema);

const updateCluster = (clusterId: string, request: UpdateClusterRequest) =>
  sendJson('PATCH', `/clusters/${clusterId}`, request, ClusterSummarySchema);

const removeCluster = (clusterId: string) => sendJson('DELETE', `/clusters/${clusterId}`, undefined);

export function useRegisterCluster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerCluster,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.clusters() }),
  });
}

export function useUpdateCluster(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateClusterRequest) => updateCluster(clusterId, request),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.clusters() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.cluster(clusterId) }),
      ]),
  });
}

export function useRemoveCluster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCluster,
    onSuccess: (_done, clusterId) => {
      queryClient.removeQueries({ queryKey: queryKeys.cluster(clusterId) });
      return queryClient.invalidateQueries({ queryKey: queryKeys.clusters() });
    },
  });
}
