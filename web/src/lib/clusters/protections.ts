import {
  ProtectionListSchema,
  ProtectionSchema,
  protectionOf,
  type CreateProtectionRequest,
  type Protection,
} from '@artemis-studio/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '../api-client';
import { queryKeys } from '../query-keys';

/** The cluster's protected queue and address patterns (issue 62, item 2), with the suggested ones it lacks. */
export const useProtections = (clusterId: string) =>
  useQuery({
    queryKey: queryKeys.protections(clusterId),
    queryFn: () => getJson(`/clusters/${clusterId}/protections`, ProtectionListSchema),
    meta: { label: 'the protected queues' },
  });

/** The protection covering a queue or address, once the patterns are read; null when none does. */
export function useProtectionOf(clusterId: string, name: string): Protection | null {
  const protections = useProtections(clusterId);
  return protectionOf(protections.data?.items ?? [], name);
}

export function useProtect(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateProtectionRequest) =>
      sendJson('POST', `/clusters/${clusterId}/protections`, request, ProtectionSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.protections(clusterId) }),
  });
}

export function useLiftProtection(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      sendJson('DELETE', `/clusters/${clusterId}/protections/${id}`, undefined, ProtectionSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.protections(clusterId) }),
  });
}
