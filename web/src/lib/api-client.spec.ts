import { ClusterSummarySchema } from '@artemis-studio/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, getJson, sendJson } from './api-client';

const respond = (status: number, body: unknown) =>
  (async () => new Response(JSON.stringify(body), { status })) as typeof fetch;

describe('getJson', () => {
  const cluster = {
    id: '4f1c0b0e-8a4e-4c55-9a39-3b4f5f1f3a11',
    name: 'prod',
    nodes: [],
    jolokiaOrigin: null,
    readOnly: false,
    notificationRing: true,
    messageBodies: 'operator' as const,
    masking: { properties: [], bodyPaths: [] },
    credentials: { jolokia: true, amqp: false },
    createdAt: '2026-11-29T10:00:00.000Z',
    updatedAt: '2026-11-29T10:00:00.000Z',
  };

  it('returns a body that matches the contract', async () => {
    await expect(
      getJson('/clusters', z.array(ClusterSummarySchema), respond(200, [cluster])),
    ).resolves.toEqual([cluster]);
  });

  it('turns the gateway error shape into an ApiError', async () => {
    const failing = respond(404, { error: { code: 'CLUSTER_NOT_FOUND', message: 'no such cluster' } });
    await expect(getJson('/clusters/x', ClusterSummarySchema, failing)).rejects.toMatchObject({
      status: 404,
      code: 'CLUSTER_NOT_FOUND',
    });
  });

  it('refuses a body that breaks the contract instead of rendering it', async () => {
    const wrong = respond(200, [{ ...cluster, id: 42 }]);
    await expect(getJson('/clusters', z.array(ClusterSummarySchema), wrong)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('sendJson', () => {
  it('keeps the field errors of a refused body', async () => {
    const refused = respond(400, {
      error: {
        code: 'VALIDATION_FAILED',
        message: 'invalid cluster registration',
        details: [{ path: 'nodes.0.jolokiaUrl', message: 'must be an http:// or https:// URL' }],
      },
    });
    await expect(sendJson('POST', '/clusters', { name: 'x' }, undefined, refused)).rejects.toMatchObject({
      status: 400,
      details: [{ path: 'nodes.0.jolokiaUrl', message: 'must be an http:// or https:// URL' }],
    });
  });

  it('names an unreachable gateway instead of a bare network error', async () => {
    const down = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    await expect(getJson('/clusters', z.unknown(), down)).rejects.toMatchObject({
      code: 'GATEWAY_UNREACHABLE',
    });
  });

  it('accepts an empty answer where no schema is expected (DELETE)', async () => {
    const empty = (async () => new Response(null, { status: 204 })) as typeof fetch;
    await expect(sendJson('DELETE', '/clusters/x', undefined, undefined, empty)).resolves.toBeUndefined();
  });
});
