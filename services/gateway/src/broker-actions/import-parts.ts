import type { ExportedMessage } from '@artemis-studio/contracts';
import type { Request } from 'express';
import { DomainError } from '../domain-error';

/** Messages in one part at most: one NATS request, each message awaited by the broker in turn. */
const PART_MESSAGES = 100;
/**
 * The bytes of one part at most (UTF-8, as NATS carries them), before the message that passes it:
 * a NATS message holds 1 MB, and a line at most IMPORT_LINE_MAX_BYTES.
 */
const PART_BYTES = 256 * 1024;

/** One part of an import: its messages, and when it may go (its rate's schedule). */
export interface ImportPart {
  messages: ExportedMessage[];
  notBefore: number;
}

/**
 * The import's messages in parts, in order. With a rate, a part is at most half a second of it and
 * goes no earlier than its first message's place in the schedule (message n at n / rate seconds).
 */
export function* importParts(
  messages: readonly ExportedMessage[],
  rate: number | undefined,
  startedAt: number,
): Generator<ImportPart> {
  const most = rate ? Math.max(1, Math.min(PART_MESSAGES, Math.floor(rate / 2))) : PART_MESSAGES;
  let at = 0;
  while (at < messages.length) {
    const part: ExportedMessage[] = [];
    let bytes = 0;
    while (at < messages.length && part.length < most && bytes < PART_BYTES) {
      bytes += Buffer.byteLength(JSON.stringify(messages[at]));
      part.push(messages[at++]);
    }
    const first = at - part.length;
    yield { messages: part, notBefore: rate ? startedAt + (first / rate) * 1000 : startedAt };
  }
}

/** The request's body as text, refused past `limit` bytes. */
export async function readBody(req: Request, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit)
      throw new DomainError(
        'invalid',
        'IMPORT_TOO_LARGE',
        `the file is larger than ${limit / (1024 * 1024)} MB: split it (each part of an export is a whole file of lines)`,
      );
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
