import {
  UnmaskedWindowListSchema,
  UnmaskedWindowSchema,
  type OpenUnmaskedWindowRequest,
} from '@artemis-studio/contracts';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The cluster's break-glass windows in force (issue 62, item 3). */
export const useUnmaskedWindows = (clusterId: string) =>
  useQuery({
    queryKey: queryKeys.unmaskedWindows(clusterId),
    queryFn: () => getJson(`/clusters/${clusterId}/unmasked-windows`, UnmaskedWindowListSchema),
    meta: { label: 'the unmasked windows' },
  });

/** A window opened or ended changes what every page of messages shows: read them again, without a reload. */
export const readBodiesAgain = (queryClient: QueryClient, clusterId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.unmaskedWindows(clusterId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.allQueueMessages(clusterId) }),
  ]);

export function useOpenUnmaskedWindow(clusterId: string, queue: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: OpenUnmaskedWindowRequest) =>
      sendJson(
        'POST',
        `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/unmasked-windows`,
        request,
        UnmaskedWindowSchema,
      ),
    onSettled: () => readBodiesAgain(queryClient, clusterId),
  });
}

export function useEndUnmaskedWindow(clusterId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      sendJson('POST', `/clusters/${clusterId}/unmasked-windows/${id}/end`, {}, UnmaskedWindowSchema),
    onSettled: () => readBodiesAgain(queryClient, clusterId),
  });
}
