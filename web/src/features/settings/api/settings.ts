import { SettingSchema, type SettingKey } from '@artemis-studio/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson, sendJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

const getSettings = () => getJson('/settings', z.array(SettingSchema));

export const settingsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.settings(), queryFn: getSettings, meta: { label: 'the settings' } });

export const useSettings = () => useQuery(settingsQueryOptions());

const putSetting = (key: SettingKey, value: number) =>
  sendJson('PUT', `/settings/${key}`, { value }, SettingSchema);

export function usePutSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ key, value }: { key: SettingKey; value: number }) => putSetting(key, value),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.settings() }),
  });
}
