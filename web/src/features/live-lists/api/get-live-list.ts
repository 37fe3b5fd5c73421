import { LiveListPageSchema, type LiveListKind } from '@artemis-studio/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface LiveListParams {
  page: number;
  pageSize: number;
}

/** Read live from the brokers through the cluster's scraper, within its per-node call budget. */
const getLiveList = (clusterId: string, kind: LiveListKind, params: LiveListParams) =>
  getJson(
    `/clusters/${clusterId}/${kind}?page=${params.page}&pageSize=${params.pageSize}`,
    LiveListPageSchema,
  );

const liveListQueryOptions = (clusterId: string, kind: LiveListKind, params: LiveListParams) =>
  queryOptions({
    queryKey: queryKeys.liveListPage(clusterId, kind, params),
    queryFn: () => getLiveList(clusterId, kind, params),
    placeholderData: keepPreviousData,
    meta: { label: `the live ${kind}` },
  });

export const useLiveList = (clusterId: string, kind: LiveListKind, params: LiveListParams) =>
  useQuery(liveListQueryOptions(clusterId, kind, params));
