import type { z } from 'zod';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** `json`: the body as received, the text `value` was parsed from. */
export type Decoded<T> = { ok: true; value: T; json: string } | { ok: false; reason: string };

/** Parses and validates one message body; never throws, so a malformed message cannot reach a handler. */
export function decode<S extends z.ZodType>(schema: S, data: Uint8Array): Decoded<z.infer<S>> {
  let json: string;
  let parsed: unknown;
  try {
    json = decoder.decode(data);
    parsed = JSON.parse(json);
  } catch (err) {
    return { ok: false, reason: `not JSON: ${(err as Error).message}` };
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    return { ok: false, reason: `${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}` };
  }
  return { ok: true, value: result.data, json };
}

/** A body whose receiver checks it, sent as it is (see `Served.checkReply`). */
export function encodeUnchecked(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** Validates before encoding: sending a message that breaks the contract is our bug, and throws. */
export function encode<S extends z.ZodType>(schema: S, value: z.infer<S>, what: string): Uint8Array {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new TypeError(
      `refusing to send an invalid ${what}: ${result.error.issues[0]?.message ?? 'invalid'}`,
    );
  }
  return encoder.encode(JSON.stringify(result.data));
}
