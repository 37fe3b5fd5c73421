import { ErrorBodySchema } from '@artemis-studio/contracts';
import { z } from 'zod';
import type { DeclaredRoute } from '../http/route-catalog';
import type { Permission } from '../access/permission';
import type { Operation } from './operation';

type Json = Record<string, unknown>;

/** The version of the `/api/v1` contract the document describes. */
export const API_VERSION = '1.0.0';

const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): Json => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
};

/** `/clusters/:id` → `/clusters/{id}`, and the names of its path parameters. */
function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const converted = path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: converted, params };
}

function queryParameters(query: z.ZodObject | undefined): Json[] {
  if (!query) return [];
  const schema = schemaOf(query, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required?.includes(name) ?? false,
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const describePermission = (permission: Permission | 'operational' | undefined): string => {
  if (!permission || permission === 'operational') return 'none';
  switch (permission.kind) {
    case 'public':
      return 'none (sign-in)';
    case 'signed-in':
      return 'any signed-in principal';
    case 'administrator':
      return 'admin on every cluster';
    case 'cluster':
      return `${permission.role} on the cluster`;
  }
};

const ERROR = { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };

function operationObject(key: string, op: Operation, route: DeclaredRoute, params: string[]): Json {
  const [method] = key.split(' ');
  const permission = route.permission;
  const isPublic = typeof permission === 'object' && permission.kind === 'public';
  const success: Json =
    op.produces === 'text/event-stream'
      ? { description: 'The event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : op.produces === 'redirect'
        ? { description: 'A redirect', headers: { Location: { schema: { type: 'string' } } } }
        : op.produces === 'application/x-ndjson' && op.response
          ? {
              description: 'One JSON document per line, each of this schema',
              content: { 'application/x-ndjson': { schema: schemaOf(op.response, 'output') } },
            }
          : op.response
            ? {
                description: 'OK',
                content: { 'application/json': { schema: schemaOf(op.response, 'output') } },
              }
            : { description: op.status === 204 ? 'Done' : 'OK' };
  return {
    operationId: `${method!.toLowerCase()}${key
      .split(' ')[1]!
      .replace(/^\/api\/v1/, '')
      .split(/[/:.-]/)
      .filter(Boolean)
      .map((p) => p[0]!.toUpperCase() + p.slice(1))
      .join('')}`,
    summary: op.summary,
    description: `Needs: ${describePermission(permission)}.${route.auditAction ? ` Audited as \`${route.auditAction}\`.` : ''}`,
    tags: [op.tag],
    ...(isPublic ? { security: [] } : {}),
    parameters: [
      ...params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...queryParameters(op.query),
      ...(op.headers ?? []).map((h) => ({
        name: h.name,
        in: 'header',
        required: h.required,
        description: h.description,
        schema: { type: 'string' },
      })),
    ],
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schemaOf(op.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [String(op.status)]: success,
      ...(method !== 'GET' || params.length || op.query
        ? { '400': { description: 'Invalid input', ...ERROR } }
        : {}),
      ...(isPublic ? {} : { '401': { description: 'No session or token', ...ERROR } }),
      ...(isPublic ? {} : { '403': { description: 'The role does not allow it', ...ERROR } }),
      ...(op.owner
        ? {
            '404': { description: 'The cluster, or the queue on any live node, does not exist', ...ERROR },
            '409': {
              description: 'The broker refused it, or the idempotency key was for another outcome',
              ...ERROR,
            },
            '423': { description: "The broker's management lock is held: retry after Retry-After", ...ERROR },
            '502': { description: 'No live node could be asked', ...ERROR },
            '504': {
              description: "The cluster's owner did not answer in time: look before retrying",
              ...ERROR,
            },
          }
        : {}),
      '503': { description: 'A dependency is down', ...ERROR },
    },
  };
}

/**
 * The gateway's OpenAPI 3.1 document, generated from the routes it serves (their permissions and
 * audit actions) and the contracts' schemas: nothing here is written twice.
 */
export function openApiDocument(routes: readonly DeclaredRoute[], version: string): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    if (route.permission === 'operational') continue;
    const key = `${route.method} ${route.path}`;
    const op = route.operation;
    if (!op)
      throw new Error(
        `${key} is served but not described: give its handler @Describe (openapi/operation.ts)`,
      );
    const { path, params } = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operationObject(key, op, route, params) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Artemis Studio gateway',
      version,
      description:
        'The HTTP API of Artemis Studio, an operations console for Apache ActiveMQ Artemis. Sign in for a session cookie, or send an API token as `Authorization: Bearer sst_…` (docs/security.md).',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }, { token: [] }],
    tags: [
      { name: 'access', description: 'Sign-in, users, grants, API tokens, the audit trail' },
      { name: 'clusters', description: 'Cluster registration' },
      { name: 'state', description: "A cluster's persisted, live and historical state" },
      { name: 'actions', description: "Acting on a cluster's brokers, through its owner" },
      { name: 'alerts', description: 'Alert rules, alerts, silences, receivers and their delivery log' },
      { name: 'settings', description: 'Runtime settings' },
      { name: 'stream', description: 'Server-Sent Events' },
      { name: 'api', description: 'This description' },
    ],
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'studio_session' },
        token: { type: 'http', scheme: 'bearer', description: 'An API token, `sst_…`' },
      },
      schemas: { Error: schemaOf(ErrorBodySchema, 'output') },
    },
  };
}
