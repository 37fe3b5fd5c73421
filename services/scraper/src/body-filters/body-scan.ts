import { selectorLiteral, type BodyScan } from '@artemis-studio/contracts';
import type { BodyVerdict, ReadMessage } from './body-filter';

/** What one scan may cost: at most this many messages read, for at most this long. */
export interface ScanBudget {
  messages: number;
  ms: number;
}

/** A message the body filter matched, with the id the broker selects it by (`AMQUserID`), if any. */
export interface BodyMatch<M> {
  message: M;
  userId: string | null;
}

/** The message's id as the broker's `AMQUserID` reads it. */
interface IdentifiedMessage extends ReadMessage {
  message_id?: unknown;
}

/** A UUID's 16 bytes as its text. */
const uuidText = (bytes: Buffer): string =>
  [0, 4, 6, 8, 10].map((at, i, all) => bytes.subarray(at, all[i + 1] ?? 16).toString('hex')).join('-');

/**
 * The id the broker's selector knows an AMQP message by (`AMQUserID`): its message-id with `ID:`
 * in front unless it starts with it (checked on 2.40 for strings, numbers and UUIDs, and a JMS
 * message's `ID:…` arrives as it is). A binary id, and a message without one, has none the
 * selector can name.
 */
export function brokerUserId(messageId: unknown): string | null {
  if (typeof messageId === 'string') return messageId.startsWith('ID:') ? messageId : `ID:${messageId}`;
  if (typeof messageId === 'number' || typeof messageId === 'bigint') return `ID:${messageId}`;
  if (Buffer.isBuffer(messageId) && messageId.length === 16) return `ID:${uuidText(messageId)}`;
  return null;
}

/**
 * One pass over a queue (ADR-0038): each message the broker's selector let through is read once,
 * from the head, and kept when the body filter matches it, until the end, the budget, or `enough`
 * matches (at most `enough` are kept; `matched` counts them all). A kept match the broker could not
 * select alone (no id, or an id another message read here carries too) is counted `unselectable`
 * and kept without its id.
 */
export async function scanBodies<M extends IdentifiedMessage, K = M>(
  read: (max: number) => Promise<M[]>,
  test: (message: M) => BodyVerdict,
  options: {
    budget: ScanBudget;
    enough?: number;
    perRead?: number;
    now?: () => number;
    /** What is kept of a match (a job keeps its id only, not a million bodies). */
    keep?: (message: M) => K;
  },
): Promise<{ matches: BodyMatch<K>[]; scan: BodyScan }> {
  const { budget, enough = Infinity, perRead = 500, now = Date.now } = options;
  const keep = options.keep ?? ((message: M) => message as unknown as K);
  const started = now();
  const seen = new Map<string, number>();
  const matches: BodyMatch<K>[] = [];
  const scan: BodyScan = {
    scanned: 0,
    reads: 0,
    matched: 0,
    unselectable: 0,
    failed: 0,
    firstFailure: null,
    complete: false,
    stoppedBy: null,
  };
  for (;;) {
    if (scan.matched >= enough) scan.stoppedBy = 'page';
    else if (scan.scanned >= budget.messages) scan.stoppedBy = 'messages';
    else if (now() - started >= budget.ms) scan.stoppedBy = 'time';
    if (scan.stoppedBy) break;
    const max = Math.min(perRead, budget.messages - scan.scanned);
    const messages = await read(max);
    scan.reads++;
    for (const message of messages) {
      scan.scanned++;
      const userId = brokerUserId(message.message_id);
      if (userId !== null) seen.set(userId, (seen.get(userId) ?? 0) + 1);
      const verdict = test(message);
      if (typeof verdict === 'object') {
        scan.failed++;
        scan.firstFailure ??= verdict.failed;
      } else if (verdict) {
        scan.matched++;
        if (matches.length < enough) matches.push({ message: keep(message), userId });
      }
    }
    if (messages.length < max) {
      scan.complete = true;
      break;
    }
  }
  for (const match of matches)
    if (match.userId === null || (seen.get(match.userId) ?? 0) > 1) {
      match.userId = null;
      scan.unselectable++;
    }
  return { matches, scan };
}

/** Selectors longer than this are split: the broker parses each call's filter afresh. */
const IDS_PER_SELECTOR = 500;

/**
 * The broker's selectors that reach exactly the matched messages: the operator's selector and the
 * matches' ids, at most IDS_PER_SELECTOR per selector.
 */
export function matchedSelectors(
  selector: string,
  userIds: string[],
  perSelector = IDS_PER_SELECTOR,
): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < userIds.length; at += perSelector) {
    const ids = `AMQUserID IN (${userIds
      .slice(at, at + perSelector)
      .map(selectorLiteral)
      .join(', ')})`;
    chunks.push(selector.trim() ? `(${selector}) AND ${ids}` : ids);
  }
  return chunks;
}

/** What two scans found together (a job reads every node holding the queue). */
export function summedScans(a: BodyScan, b: BodyScan): BodyScan {
  return {
    scanned: a.scanned + b.scanned,
    reads: a.reads + b.reads,
    matched: a.matched + b.matched,
    unselectable: a.unselectable + b.unselectable,
    failed: a.failed + b.failed,
    firstFailure: a.firstFailure ?? b.firstFailure,
    complete: a.complete && b.complete,
    stoppedBy: a.stoppedBy ?? b.stoppedBy,
  };
}
