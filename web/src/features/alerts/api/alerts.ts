import {
  AlertListSchema,
  AlertRuleListSchema,
  AlertRuleSchema,
  AlertRuleTestSchema,
  AlertSchema,
  AlertSummarySchema,
  DeliveryListSchema,
  DeliverySchema,
  ReceiverListSchema,
  ReceiverSchema,
  SubjectActionListSchema,
  SilenceListSchema,
  SilenceSchema,
  type CreateAlertRuleInput,
  type CreateReceiverInput,
  type CreateSilenceRequest,
} from '@artemis-studio/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * How often the header asks again without a signal: an evaluation that stops coming sends no
 * signal, and the count must turn from "n firing" to "not evaluated" on its own.
 */
const SUMMARY_REFRESH_MS = 15_000;

export const useAlertSummary = () =>
  useQuery({
    queryKey: queryKeys.alertSummary(),
    queryFn: () => getJson('/alerts/summary', AlertSummarySchema),
    refetchInterval: SUMMARY_REFRESH_MS,
    meta: { label: 'the alert count' },
  });

export interface AlertFilters {
  state?: 'active' | 'pending' | 'firing' | 'resolved';
  severity?: 'info' | 'warning' | 'critical';
  cluster?: string;
  rule?: string;
  /** `true`: only the alerts a silence covers now; `false`: only those none does. */
  silenced?: 'true' | 'false';
}

export const useAlerts = (filters: AlertFilters) =>
  useQuery({
    queryKey: queryKeys.alertList(filters),
    queryFn: () => {
      const params = new URLSearchParams(
        Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      return getJson(`/alerts?${params.toString()}`, AlertListSchema);
    },
    refetchInterval: SUMMARY_REFRESH_MS,
    meta: { label: 'the alerts' },
  });

export const useAlert = (clusterId: string, alertId: string) =>
  useQuery({
    queryKey: queryKeys.alertingPart(clusterId, 'alert', { alertId }),
    queryFn: () => getJson(`/clusters/${clusterId}/alerts/${alertId}`, AlertSchema),
    meta: { label: 'the alert' },
  });

/** What people did to the alert's subject around it (the audit trail's successes on it). */
export const useAlertActions = (clusterId: string, alertId: string) =>
  useQuery({
    queryKey: queryKeys.alertingPart(clusterId, 'actions', { alertId }),
    queryFn: () => getJson(`/clusters/${clusterId}/alerts/${alertId}/actions`, SubjectActionListSchema),
    // An action sends no signal of its own to this page: read again as the delivery log is.
    refetchInterval: 10_000,
    meta: { label: "the actions on the alert's subject" },
  });

export const useAlertRules = (clusterId: string, enabled = true) =>
  useQuery({
    queryKey: queryKeys.alertingPart(clusterId, 'rules'),
    queryFn: () => getJson(`/clusters/${clusterId}/alert-rules`, AlertRuleListSchema),
    enabled,
    meta: { label: 'the alert rules' },
  });

export const useSilences = (clusterId: string) =>
  useQuery({
    queryKey: queryKeys.alertingPart(clusterId, 'silences'),
    queryFn: () => getJson(`/clusters/${clusterId}/alert-silences`, SilenceListSchema),
    meta: { label: 'the silences' },
  });

export const useReceivers = (clusterId: string, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.alertingPart(clusterId, 'receivers'),
    queryFn: () => getJson(`/clusters/${clusterId}/alert-receivers`, ReceiverListSchema),
    enabled,
    meta: { label: 'the receivers' },
  });

export const useDeliveries = (clusterId: string, alertId?: string) =>
  useQuery({
    queryKey: queryKeys.alertingPart(clusterId, 'deliveries', { alertId }),
    queryFn: () =>
      getJson(
        `/clusters/${clusterId}/alert-deliveries?limit=50${alertId ? `&alert=${alertId}` : ''}`,
        DeliveryListSchema,
      ),
    // A delivery's retries send no signal: its row changes on the owner's schedule.
    refetchInterval: 10_000,
    meta: { label: 'the delivery log' },
  });

/** A change to the cluster's alerting: everything of it, and the cross-cluster lists, are read again. */
function useAlertingChange<T, R>(clusterId: string, change: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.alerting(clusterId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.alerts() }),
      ]),
  });
}

export const useSaveRule = (clusterId: string) =>
  useAlertingChange(clusterId, ({ id, rule }: { id?: string; rule: CreateAlertRuleInput }) =>
    id
      ? sendJson('PUT', `/clusters/${clusterId}/alert-rules/${id}`, rule, AlertRuleSchema)
      : sendJson('POST', `/clusters/${clusterId}/alert-rules`, rule, AlertRuleSchema),
  );

/** Reads a drafted rule against the owner's last figures; changes nothing, so invalidates nothing. */
export const useTestRule = (clusterId: string) =>
  useMutation({
    mutationFn: (rule: CreateAlertRuleInput) =>
      sendJson('POST', `/clusters/${clusterId}/alert-rules/test`, rule, AlertRuleTestSchema),
  });

export const useDeleteRule = (clusterId: string) =>
  useAlertingChange(clusterId, (id: string) =>
    sendJson('DELETE', `/clusters/${clusterId}/alert-rules/${id}`, undefined),
  );

export const useCreateSilence = (clusterId: string) =>
  useAlertingChange(clusterId, (silence: CreateSilenceRequest) =>
    sendJson('POST', `/clusters/${clusterId}/alert-silences`, silence, SilenceSchema),
  );

export const useEndSilence = (clusterId: string) =>
  useAlertingChange(clusterId, (id: string) =>
    sendJson('POST', `/clusters/${clusterId}/alert-silences/${id}/end`, {}, SilenceSchema),
  );

export const useCreateReceiver = (clusterId: string) =>
  useAlertingChange(clusterId, (receiver: CreateReceiverInput) =>
    sendJson('POST', `/clusters/${clusterId}/alert-receivers`, receiver, ReceiverSchema),
  );

/**
 * A receiver's test notification: owed at once, sent by the cluster's owner within a second or so.
 * The delivery log is read again as it settles, so its outcome (or why it failed) shows without a
 * wait for the log's own refresh.
 */
export function useSendTestNotification(clusterId: string) {
  const queryClient = useQueryClient();
  const reread = () =>
    queryClient.invalidateQueries({ queryKey: queryKeys.alertingPart(clusterId, 'deliveries') });
  return useMutation({
    mutationFn: (receiverId: string) =>
      sendJson(
        'POST',
        `/clusters/${clusterId}/alert-receivers/${receiverId}/test`,
        undefined,
        DeliverySchema,
      ),
    onSuccess: () => {
      void reread();
      for (const ms of [1_500, 4_000, 8_000]) setTimeout(() => void reread(), ms);
    },
  });
}

export const useDeleteReceiver = (clusterId: string) =>
  useAlertingChange(clusterId, (id: string) =>
    sendJson('DELETE', `/clusters/${clusterId}/alert-receivers/${id}`, undefined),
  );
