import { IncidentSchema, MetricsResponseSchema } from '@artemis-studio/contracts';
import { useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Around an alert, or over a range by hand: the route's search parameters as they are. */
export type IncidentRange = { alert: string } | { from: string; to: string };

export const useIncident = (clusterId: string, range: IncidentRange) =>
  useQuery({
    queryKey: queryKeys.incident(clusterId, range),
    queryFn: () =>
      getJson(`/clusters/${clusterId}/incident?${new URLSearchParams(range).toString()}`, IncidentSchema),
    meta: { label: 'the incident' },
  });

/** A queue's figures over the incident's fixed range: it does not slide with the clock. */
export const useIncidentQueueMetrics = (clusterId: string, queue: string, from: string, to: string) =>
  useQuery({
    queryKey: queryKeys.queueMetrics(clusterId, queue, { from, to }),
    queryFn: () =>
      getJson(
        `/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/metrics?${new URLSearchParams({ from, to }).toString()}`,
        MetricsResponseSchema,
      ),
    meta: { label: "the queue's chart" },
  });

/** The cluster's node figures over the incident's range. */
export const useIncidentNodeMetrics = (clusterId: string, from: string, to: string) =>
  useQuery({
    queryKey: queryKeys.clusterMetrics(clusterId, { from, to }),
    queryFn: () =>
      getJson(
        `/clusters/${clusterId}/metrics?${new URLSearchParams({ from, to }).toString()}`,
        MetricsResponseSchema,
      ),
    meta: { label: "the node's chart" },
  });
