import { RpcError } from '@artemis-studio/bus';
import {
  MASK,
  maskAt,
  OWNER_FAILURES,
  pathSegments,
  propertyMasked,
  type BodyFilter,
  type MaskingRules,
} from '@artemis-studio/contracts';
import { celEnv, isCelError, parse, plan, type CelInput } from '@bufbuild/cel';
import { RE2JS } from 're2js';

/** What a body filter says of one message: matched or not, or why it could not tell. */
export type BodyVerdict = boolean | { failed: string };

/** The parts of a message a body filter reads, as an AMQP receiver got them (rhea's Message). */
export interface ReadMessage {
  body?: unknown;
  application_properties?: Record<string, unknown>;
}

/** AMQP's data section descriptor: a body of bytes. */
const DATA_SECTION = 0x75;

/**
 * The body as text: a string as it is, bytes (a data section) as UTF-8, any other AMQP value (a
 * map, a list) as its JSON.
 */
function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  const section = body as { typecode?: number; content?: unknown };
  if (section.typecode === DATA_SECTION) {
    const parts = Array.isArray(section.content) ? section.content : [section.content];
    return Buffer.concat(parts.filter((p): p is Buffer => Buffer.isBuffer(p))).toString('utf8');
  }
  return JSON.stringify(body, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

/** A JSON value as CEL reads it: objects become maps (CEL takes no plain object as a map). */
function celValue(value: unknown): CelInput {
  if (Array.isArray(value)) return value.map(celValue);
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value))
    return new Map(Object.entries(value).map(([k, v]) => [k, celValue(v)]));
  if (value === undefined) return null;
  return value as CelInput;
}

/** The body as CEL's `body`: its JSON when it parses as JSON, its text otherwise. */
function celBody(body: unknown): CelInput {
  const text = bodyText(body);
  const start = text.trimStart()[0];
  if (start === '{' || start === '[' || start === '"') {
    try {
      return celValue(JSON.parse(text));
    } catch {
      return text;
    }
  }
  return text;
}

const invalid = (why: string) => new RpcError(OWNER_FAILURES.invalid, why);

/** A CEL expression over `body` and `properties`, parsed and planned once. */
function celFilter(expression: string): (message: ReadMessage) => BodyVerdict {
  let planned: ReturnType<typeof plan>;
  try {
    planned = plan(celEnv(), parse(expression));
  } catch (err) {
    throw invalid(`body filter: ${(err as Error).message}`);
  }
  return (message) => {
    const result = planned({
      body: celBody(message.body),
      properties: celValue(message.application_properties ?? {}),
    });
    if (isCelError(result)) return { failed: result.message };
    if (typeof result !== 'boolean')
      return {
        failed: `the expression gave ${typeof result === 'bigint' ? 'an int' : typeof result}, not true or false`,
      };
    return result;
  };
}

/**
 * The message as the person asking may see it: the cluster's masked properties as `***`, its body
 * paths masked, and a body they cannot be applied to (not JSON) withheld, as a browse withholds it.
 * Without this a filter would be an oracle on what masking hides (`body.card.startsWith("4")`).
 */
function maskedForFilter(message: ReadMessage, rules: MaskingRules | undefined): ReadMessage {
  if (!rules || (rules.properties.length === 0 && rules.bodyPaths.length === 0)) return message;
  const application_properties = Object.fromEntries(
    Object.entries(message.application_properties ?? {}).map(([name, value]) => [
      name,
      propertyMasked(name, rules) ? MASK : value,
    ]),
  );
  if (rules.bodyPaths.length === 0) return { ...message, application_properties };
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText(message.body));
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object') return { application_properties, body: null };
  for (const path of rules.bodyPaths) maskAt(parsed, pathSegments(path));
  return { application_properties, body: JSON.stringify(parsed) };
}

/**
 * A body filter ready to read messages (ADR-0038), each as `masking` lets the person asking see it. CEL and RE2 (linear time, no backtracking) keep
 * one operator's expression from stalling the owner on a large body, as a JavaScript RegExp could.
 * An expression that does not parse is refused here, before any message is read.
 */
export function compileBodyFilter(
  filter: BodyFilter,
  masking?: MaskingRules,
): (message: ReadMessage) => BodyVerdict {
  const test = unmaskedFilter(filter);
  return masking ? (message) => test(maskedForFilter(message, masking)) : test;
}

function unmaskedFilter(filter: BodyFilter): (message: ReadMessage) => BodyVerdict {
  switch (filter.match) {
    case 'cel':
      return celFilter(filter.expression);
    case 'text':
      return (message) => bodyText(message.body).includes(filter.expression);
    case 'regex': {
      let pattern: RE2JS;
      try {
        pattern = RE2JS.compile(filter.expression);
      } catch (err) {
        throw invalid(`body filter: ${(err as Error).message}`);
      }
      return (message) => pattern.matcher(bodyText(message.body)).find();
    }
  }
}
