import { MeSchema } from '@artemis-studio/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, getJson } from '../api-client';
import { queryKeys } from '../query-keys';
import { abilitiesOf, type Abilities } from './abilities';

/** Who is signed in, or null when nobody is (a 401 is an answer here, not an error). */
const meQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.me(),
    queryFn: async () => {
      try {
        return await getJson('/auth/me', MeSchema);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    // Never polled with the screens: re-read when a query is refused (live.ts) or on sign-in/out.
    refetchInterval: false,
    meta: { label: 'who is signed in' },
  });

export const useMe = () => useQuery(meQueryOptions());

/** What the signed-in principal may do here, to hide or disable what the gateway would refuse. */
export const useAbilities = (): Abilities => abilitiesOf(useMe().data);
