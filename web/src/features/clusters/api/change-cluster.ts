import {
  ClusterSummarySchema,
  SavedSuggestedAlertRulesSchema,
  type CreateClusterRequest,
  type UpdateClusterRequest,
} from '@artemis-studio/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sendJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const registerCluster = (request: CreateClusterRequest) =>
  sendJson('POST', '/clusters', request, ClusterSummarySchema);

/** Saves the suggested alert rules of these names on a cluster: those chosen as it was registered. */
const saveSuggestedRules = (clusterId: string, names: string[]) =>
  sendJson('POST', `/clusters/${clusterId}/alert-rules/suggested`, { names }, SavedSuggestedAlertRulesSchema);

const updateCluster = (clusterId: string, request: UpdateClusterRequest) =>
  sendJson('PATCH', `/clusters/${clusterId}`, request, ClusterSummarySchema);

const removeCluster = (clusterId: string) => sendJson('DELETE', `/clusters/${clusterId}`, undefined);

/**
 * Registers a cluster, then saves the suggested rules chosen with it. The rules are a second
 * request: when it fails the cluster stays registered, and the error says the rules were not saved.
 */
export function useRegisterCluster() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ request, rules }: { request: CreateClusterRequest; rules: string[] }) => {
      const cluster = await registerCluster(request);
      if (rules.length === 0) return { cluster, rulesFailure: null };
      const rulesFailure = await saveSuggestedRules(cluster.id, rules).then(
        () => null,
        (err: Error) => err.message,
      );
      return { cluster, rulesFailure };
    },
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
