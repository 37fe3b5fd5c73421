import {
  BrokerChangeResultSchema,
  LiveListPageSchema,
  LiveListQuerySchema,
  MessageJobBodySchema,
  MessageJobSchema,
  QueueActionResultSchema,
} from '@artemis-studio/contracts';
import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';

/** One operation of the HTTP API, described from the contracts' own schemas. */
export interface Operation {
  summary: string;
  tag: 'access' | 'clusters' | 'state' | 'actions' | 'alerts' | 'settings' | 'stream' | 'api';
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The success status and what it carries (none for 204, a redirect or the event stream). */
  status: number;
  response?: z.ZodType;
  /** What is sent instead of JSON (the SSE stream, a redirect, NDJSON lines of `response`). */
  produces?: 'text/event-stream' | 'redirect' | 'application/x-ndjson';
  /** Request headers the operation reads (an action's Idempotency-Key). */
  headers?: { name: string; required: boolean; description: string }[];
  /** Answered by the cluster's owner: its failures (refused, busy, unreachable, timeout) may come back. */
  owner?: boolean;
}

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  required: true,
  description:
    'A new UUID per action, the same one when retrying it: a retry is answered what the first request was, and acts once',
};

/** A change made through the owner (a queue or an address made or removed, a message sent). */
export const brokerChange = (summary: string, body?: z.ZodType): Operation => ({
  summary,
  tag: 'actions',
  ...(body ? { body } : {}),
  status: 200,
  response: BrokerChangeResultSchema,
  headers: [IDEMPOTENCY_KEY],
  owner: true,
});

/** A queue action: each answers with what every node did. */
export const queueAction = (summary: string, body?: z.ZodObject): Operation => ({
  summary,
  tag: 'actions',
  ...(body ? { body } : {}),
  status: 200,
  response: QueueActionResultSchema,
  headers: [IDEMPOTENCY_KEY],
  owner: true,
});

/** A message job started: answered 202 with the job, which goes on in batches (ADR-0012). */
export const messageJob = (summary: string): Operation => ({
  summary,
  tag: 'actions',
  body: MessageJobBodySchema,
  status: 202,
  response: MessageJobSchema,
  headers: [IDEMPOTENCY_KEY],
  owner: true,
});

/** Live consumers, sessions or connections: one route each, one shape. */
export const liveList = (kind: 'consumers' | 'sessions' | 'connections'): Operation => ({
  summary: `Live ${kind}, read from the brokers`,
  tag: 'state',
  query: LiveListQuerySchema,
  status: 200,
  response: LiveListPageSchema,
});

export const OPERATION = 'studio:operation';

/**
 * `@Describe({ summary, tag, query, body, status, response })` on a handler: its OpenAPI
 * operation, written beside it from the contracts' schemas. The document is generated from the
 * routes the gateway serves (openapi-document.ts); a route without one fails its test.
 */
export const Describe = (operation: Operation) => SetMetadata(OPERATION, operation);
