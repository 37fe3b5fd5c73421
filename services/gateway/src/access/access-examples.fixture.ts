import type { ApiSession } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import type { DeclaredRoute } from '../http/route-catalog';
import { json, type AccessStack } from './access-stack.fixture';

/** What each route is called with in the matrix; a route missing here fails the matrix. */
interface Example {
  path: string;
  init?: RequestInit;
}
export type Caller = (ApiSession & { username?: string }) | null;
export type Examples = Record<string, (as: Caller) => Promise<Example>>;

/** An example call of every route the gateway serves, on the stack's cluster. */
export function routeExamples(stack: AccessStack): Examples {
  /** A plain GET of one of the stack's cluster's routes. */
  const ofCluster = (path: string) => async () => ({ path: `/api/v1/clusters/${stack.clusterId}${path}` });
  return {
    'GET /api/v1/auth/config': async () => ({ path: '/api/v1/auth/config' }),
    'POST /api/v1/auth/sign-in': async () => ({
      path: '/api/v1/auth/sign-in',
      init: json('POST', { username: 'nobody', password: 'not the password' }),
    }),
    'POST /api/v1/auth/sign-out': async () => ({
      path: '/api/v1/auth/sign-out',
      init: { method: 'POST' },
    }),
    'GET /api/v1/auth/me': async () => ({ path: '/api/v1/auth/me' }),
    'POST /api/v1/auth/password': async (as) => ({
      path: '/api/v1/auth/password',
      init: json('POST', {
        currentPassword: `${as?.username}-password`,
        newPassword: 'a-brand-new-password',
      }),
    }),
    'GET /api/v1/auth/oidc/start': async () => ({ path: '/api/v1/auth/oidc/start' }),
    'GET /api/v1/auth/oidc/callback': async () => ({ path: '/api/v1/auth/oidc/callback?code=x&state=y' }),
    'GET /api/v1/users': async () => ({ path: '/api/v1/users' }),
    'POST /api/v1/users': async () => ({
      path: '/api/v1/users',
      init: json('POST', { kind: 'service', username: `svc-${randomUUID().slice(0, 8)}` }),
    }),
    'PATCH /api/v1/users/:userId': async () => ({
      path: `/api/v1/users/${await stack.newUser()}`,
      init: json('PATCH', { disabled: true }),
    }),
    'DELETE /api/v1/users/:userId': async () => ({
      path: `/api/v1/users/${await stack.newUser()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/grants': async () => ({ path: '/api/v1/grants' }),
    'POST /api/v1/grants': async () => ({
      path: '/api/v1/grants',
      init: json('POST', { subjectKind: 'group', subject: `g-${randomUUID().slice(0, 8)}`, role: 'viewer' }),
    }),
    'DELETE /api/v1/grants/:grantId': async () => ({
      path: `/api/v1/grants/${await stack.newGrant()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/tokens': async () => ({ path: '/api/v1/tokens' }),
    'POST /api/v1/tokens': async () => ({
      path: '/api/v1/tokens',
      init: json('POST', { name: 'ci', role: 'viewer' }),
    }),
    'DELETE /api/v1/tokens/:tokenId': async () => ({
      path: `/api/v1/tokens/${randomUUID()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/audit': async () => ({ path: '/api/v1/audit?limit=5' }),
    'POST /api/v1/clusters': async () => ({
      path: '/api/v1/clusters',
      init: json('POST', {
        name: `m-${randomUUID().slice(0, 8)}`,
        nodes: [{ name: 'n1', jolokiaUrl: 'http://127.0.0.1:1/console/jolokia' }],
      }),
    }),
    'GET /api/v1/clusters': async () => ({ path: '/api/v1/clusters' }),
    'GET /api/v1/clusters/:id': async () => ({ path: `/api/v1/clusters/${stack.clusterId}` }),
    'PATCH /api/v1/clusters/:id': async () => ({
      path: `/api/v1/clusters/${await stack.registerCluster()}`,
      init: json('PATCH', { jolokiaOrigin: 'http://127.0.0.1' }),
    }),
    'DELETE /api/v1/clusters/:id': async () => ({
      path: `/api/v1/clusters/${await stack.registerCluster()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/topology': ofCluster('/topology'),
    'GET /api/v1/clusters/:id/queues': async () => ({ path: `/api/v1/clusters/${stack.clusterId}/queues` }),
    'GET /api/v1/clusters/:id/queues/across-nodes': ofCluster('/queues/across-nodes'),
    'GET /api/v1/clusters/:id/cluster-links': ofCluster('/cluster-links'),
    'GET /api/v1/clusters/:id/events': ofCluster('/events?limit=1'),
    'GET /api/v1/clusters/:id/incident': ofCluster(
      `/incident?from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date().toISOString()}`,
    ),
    'GET /api/v1/clusters/:id/metrics': async () => ({ path: `/api/v1/clusters/${stack.clusterId}/metrics` }),
    'GET /api/v1/clusters/:id/queues/growth': ofCluster('/queues/growth'),
    'GET /api/v1/clusters/:id/queues/:queue/metrics': ofCluster('/queues/q/metrics'),
    'GET /api/v1/clusters/:id/queues/:queue/baseline': ofCluster('/queues/q/baseline'),
    'GET /api/v1/clusters/:id/addresses/:address/metrics': ofCluster('/addresses/q/metrics'),
    // Refused after the guard (no Idempotency-Key, or an unknown action): acting would ask a
    // scraper this test does not run.
    'POST /api/v1/clusters/:id/queues': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues`,
      init: json('POST', { name: 'q' }),
    }),
    'POST /api/v1/clusters/:id/addresses/:address/messages': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/addresses/a/messages`,
      init: json('POST', { body: 'hello' }),
    }),
    'POST /api/v1/clusters/:id/queues/:queue/messages': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues/q/messages`,
      init: json('POST', { body: 'hello' }),
    }),
    'POST /api/v1/clusters/:id/addresses': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/addresses`,
      init: json('POST', { name: 'a' }),
    }),
    'DELETE /api/v1/clusters/:id/addresses/:address': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/addresses/a`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/queues/:queue/messages': ofCluster('/queues/q/messages?pageSize=0'),
    // Refused by their query's schema before the broker or a body is read.
    'GET /api/v1/clusters/:id/queues/:queue/export': ofCluster('/queues/q/export?everything=yes'),
    'POST /api/v1/clusters/:id/queues/:queue/import': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues/q/import?dryRun=maybe`,
      init: { method: 'POST', headers: { 'Content-Type': 'application/x-ndjson' }, body: '' },
    }),
    'GET /api/v1/clusters/:id/queues/:queue/impact': ofCluster('/queues/q/impact?action=nothing'),
    'POST /api/v1/clusters/:id/queues/:queue/pause': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues/q/pause`,
      init: json('POST', {}),
    }),
    'POST /api/v1/clusters/:id/queues/:queue/resume': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues/q/resume`,
      init: json('POST', {}),
    }),
    'POST /api/v1/clusters/:id/queues/:queue/purge': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues/q/purge`,
      init: json('POST', {}),
    }),
    'POST /api/v1/clusters/:id/queues/:queue/retry': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues/q/retry`,
      init: json('POST', {}),
    }),
    'GET /api/v1/clusters/:id/queues/:queue/messages/impact': ofCluster(
      '/queues/q/messages/impact?kind=nothing',
    ),
    // Without an Idempotency-Key each is refused before the owner is asked.
    ...Object.fromEntries(
      ['move', 'copy', 'retry', 'delete'].map((kind) => [
        `POST /api/v1/clusters/:id/queues/:queue/messages/${kind}`,
        async () => ({
          path: `/api/v1/clusters/${stack.clusterId}/queues/q/messages/${kind}`,
          init: json('POST', { to: 'r', messageIds: ['1'], node: 'a' }),
        }),
      ]),
    ),
    'GET /api/v1/clusters/:id/queues/:queue/dead-letters': ofCluster('/queues/q/dead-letters?unknown=1'),
    'GET /api/v1/clusters/:id/message-jobs': ofCluster('/message-jobs?limit=0'),
    'GET /api/v1/clusters/:id/message-jobs/:jobId': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/message-jobs/${randomUUID()}`,
    }),
    'POST /api/v1/clusters/:id/message-jobs/:jobId/cancel': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/message-jobs/${randomUUID()}/cancel`,
      init: json('POST', {}),
    }),
    'POST /api/v1/clusters/:id/message-jobs/:jobId/resume': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/message-jobs/${randomUUID()}/resume`,
      init: json('POST', {}),
    }),
    'DELETE /api/v1/clusters/:id/queues/:queue': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues/q`,
      init: { method: 'DELETE' },
    }),
    // Refused by validation, after the guard: a valid read would ask a scraper this test does not run.
    'GET /api/v1/clusters/:id/consumers': ofCluster('/consumers?page=0'),
    'GET /api/v1/clusters/:id/sessions': ofCluster('/sessions?page=0'),
    'GET /api/v1/clusters/:id/connections': ofCluster('/connections?page=0'),
    'GET /api/v1/alerts': async () => ({ path: '/api/v1/alerts' }),
    'GET /api/v1/alerts/summary': async () => ({ path: '/api/v1/alerts/summary' }),
    'GET /api/v1/clusters/:id/alerts/:alertId': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alerts/${randomUUID()}`,
    }),
    'GET /api/v1/clusters/:id/alerts/:alertId/actions': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alerts/${randomUUID()}/actions`,
    }),
    'GET /api/v1/clusters/:id/alert-rules': ofCluster('/alert-rules'),
    'POST /api/v1/clusters/:id/alert-rules': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-rules`,
      init: json('POST', stack.rule()),
    }),
    // Refused by validation, after the guard: a valid rule would ask a scraper this test does not run.
    'GET /api/v1/clusters/:id/alert-rules/suggested': ofCluster('/alert-rules/suggested'),
    // Refused by validation, after the guard: no such suggestion.
    'POST /api/v1/clusters/:id/alert-rules/suggested': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-rules/suggested`,
      init: json('POST', { names: ['no such rule'] }),
    }),
    'POST /api/v1/clusters/:id/alert-rules/test': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-rules/test`,
      init: json('POST', { name: 'draft' }),
    }),
    'PUT /api/v1/clusters/:id/alert-rules/:ruleId': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-rules/${await stack.newRule()}`,
      init: json('PUT', stack.rule()),
    }),
    'DELETE /api/v1/clusters/:id/alert-rules/:ruleId': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-rules/${await stack.newRule()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/alert-silences': ofCluster('/alert-silences'),
    'POST /api/v1/clusters/:id/alert-silences': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-silences`,
      init: json('POST', { endsAt: new Date(Date.now() + 3_600_000).toISOString(), reason: 'maintenance' }),
    }),
    'POST /api/v1/clusters/:id/alert-silences/:silenceId/end': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-silences/${await stack.newSilence()}/end`,
      init: json('POST', {}),
    }),
    'GET /api/v1/clusters/:id/protections': ofCluster('/protections'),
    'GET /api/v1/clusters/:id/unmasked-windows': ofCluster('/unmasked-windows'),
    'POST /api/v1/clusters/:id/queues/:queue/unmasked-windows': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/queues/orders/unmasked-windows`,
      init: json('POST', stack.unmaskedWindow()),
    }),
    'POST /api/v1/clusters/:id/unmasked-windows/:windowId/end': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/unmasked-windows/${await stack.newUnmaskedWindow()}/end`,
      init: json('POST', {}),
    }),
    'POST /api/v1/clusters/:id/protections': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/protections`,
      init: json('POST', stack.protection()),
    }),
    'DELETE /api/v1/clusters/:id/protections/:protectionId': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/protections/${await stack.newProtection()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/alert-receivers': ofCluster('/alert-receivers'),
    'POST /api/v1/clusters/:id/alert-receivers': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-receivers`,
      init: json('POST', stack.receiver()),
    }),
    'PUT /api/v1/clusters/:id/alert-receivers/:receiverId': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-receivers/${await stack.newReceiver()}`,
      init: json('PUT', stack.receiver()),
    }),
    'POST /api/v1/clusters/:id/alert-receivers/:receiverId/test': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-receivers/${await stack.newReceiver()}/test`,
      init: json('POST', {}),
    }),
    'DELETE /api/v1/clusters/:id/alert-receivers/:receiverId': async () => ({
      path: `/api/v1/clusters/${stack.clusterId}/alert-receivers/${await stack.newReceiver()}`,
      init: { method: 'DELETE' },
    }),
    'GET /api/v1/clusters/:id/alert-deliveries': ofCluster('/alert-deliveries'),
    'GET /api/v1/settings': async () => ({ path: '/api/v1/settings' }),
    'GET /api/v1/settings/:key': async () => ({ path: '/api/v1/settings/artemis-studio.events.flush' }),
    'PUT /api/v1/settings/:key': async () => ({
      path: '/api/v1/settings/artemis-studio.events.flush',
      init: json('PUT', { value: 1000 }),
    }),
    'GET /api/v1/stream': async () => ({ path: `/api/v1/stream?clusterId=${stack.clusterId}` }),
    'GET /api/v1/openapi.json': async () => ({ path: '/api/v1/openapi.json' }),
  };
}

/** One request, with a stream's body abandoned once its status is known. */
export async function call(
  examples: Examples,
  route: DeclaredRoute,
  as: Caller,
  base: string,
): Promise<{ status: number; requestId: string | null }> {
  const example = await examples[`${route.method} ${route.path}`]!(as);
  const abort = new AbortController();
  const init = { ...example.init, redirect: 'manual' as const, signal: abort.signal };
  const response = as
    ? await as.fetch(`${base}${example.path}`, init)
    : await fetch(`${base}${example.path}`, init);
  abort.abort();
  return { status: response.status, requestId: response.headers.get('x-request-id') };
}
