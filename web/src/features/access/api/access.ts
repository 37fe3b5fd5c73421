import {
  ApiTokenSchema,
  AuditPageSchema,
  AuthConfigSchema,
  CreatedTokenSchema,
  GrantSchema,
  MeSchema,
  UserSchema,
  type AuditQuery,
  type ChangePasswordRequest,
  type CreateGrantRequest,
  type CreateTokenRequest,
  type CreateUserRequest,
  type SignInRequest,
  type UpdateUserRequest,
} from '@artemis-studio/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson, sendJson } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Before sign-in: which ways in the gateway offers. */
export const useAuthConfig = () =>
  useQuery({
    queryKey: queryKeys.authConfig(),
    queryFn: () => getJson('/auth/config', AuthConfigSchema),
    staleTime: Infinity,
    meta: { label: 'the sign-in options' },
  });

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SignInRequest) => sendJson('POST', '/auth/sign-in', request, MeSchema),
    onSuccess: (me) => {
      queryClient.setQueryData(queryKeys.me(), me);
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'access' });
    },
  });
}

/** Ends every session of the user, this one too: the sign-in page follows. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ChangePasswordRequest) => sendJson('POST', '/auth/password', change),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me() }),
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendJson('POST', '/auth/sign-out', undefined),
    onSettled: () => {
      // Nothing of the signed-out user stays in memory. `me` is set, not removed: the gate
      // observes that query, and a removed one would not tell it.
      queryClient.setQueryData(queryKeys.me(), null);
      const kept = [queryKeys.me(), queryKeys.authConfig()].map((k) => JSON.stringify(k));
      queryClient.removeQueries({ predicate: (q) => !kept.includes(JSON.stringify(q.queryKey)) });
    },
  });
}

const useAdminQuery = <T>(key: readonly unknown[], path: string, schema: z.ZodType<T>, label: string) =>
  useQuery({ queryKey: key, queryFn: () => getJson(path, schema), meta: { label } });

export const useUsers = () => useAdminQuery(queryKeys.users(), '/users', z.array(UserSchema), 'the users');
export const useGrants = () =>
  useAdminQuery(queryKeys.grants(), '/grants', z.array(GrantSchema), 'the grants');
export const useTokens = () =>
  useAdminQuery(queryKeys.tokens(), '/tokens', z.array(ApiTokenSchema), 'the tokens');

export const useAudit = (filters: Partial<AuditQuery>) => {
  const params = new URLSearchParams(
    Object.entries(filters).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)]])),
  );
  return useQuery({
    queryKey: queryKeys.audit(filters),
    queryFn: () => getJson(`/audit?${params}`, AuditPageSchema),
    meta: { label: 'the audit trail' },
  });
};

/** A change to users, grants or tokens: the lists (and the audit trail) are re-read after it. */
function useAccessChange<I, O>(send: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['access'] }),
  });
}

export const useCreateUser = () =>
  useAccessChange((request: CreateUserRequest) => sendJson('POST', '/users', request, UserSchema));
export const useUpdateUser = () =>
  useAccessChange(({ id, change }: { id: string; change: UpdateUserRequest }) =>
    sendJson('PATCH', `/users/${id}`, change, UserSchema),
  );
export const useDeleteUser = () =>
  useAccessChange((id: string) => sendJson('DELETE', `/users/${id}`, undefined));
export const useCreateGrant = () =>
  useAccessChange((request: CreateGrantRequest) => sendJson('POST', '/grants', request, GrantSchema));
export const useDeleteGrant = () =>
  useAccessChange((id: string) => sendJson('DELETE', `/grants/${id}`, undefined));
export const useCreateToken = () =>
  useAccessChange((request: CreateTokenRequest) => sendJson('POST', '/tokens', request, CreatedTokenSchema));
export const useRevokeToken = () =>
  useAccessChange((id: string) => sendJson('DELETE', `/tokens/${id}`, undefined));
