import {
  PROPERTY_TYPES,
  type BodyScan,
  propertyValueProblem,
  type BrowsedMessage,
  type QueueMessagesPage,
  type TypedProperty,
} from '@artemis-studio/contracts';
import { formatNumber } from '../../lib/ui/format';

/** One line of a message's body for the table: its start, and whether there is more. */
export function previewLine(message: BrowsedMessage): string {
  if (message.largeMessage) return '(a large message: its body is not shown)';
  if (message.body.masked === 'withheld') return '(withheld by the masking rules)';
  if (message.body.preview === null) return '(no body shown)';
  if (message.body.encoding === 'base64') {
    const bytes = bytesOf(message.body.preview);
    const more = message.body.truncated || bytes.length > 32 ? ' …' : '';
    return `bytes: ${hexOf(bytes.subarray(0, 32))}${more}`;
  }
  return message.body.truncated
    ? `${message.body.preview.slice(0, 200)}…`
    : message.body.preview.slice(0, 200);
}

/** What the drawer says of a body that is not whole, and how to see more; null when it is whole. */
export function bodyNote(message: BrowsedMessage): string | null {
  if (message.largeMessage)
    return 'A large message: the broker keeps its body in a file of its own and does not show it over management.';
  if (message.body.masked === 'withheld')
    return 'Withheld: this cluster masks values in message bodies, and this body is not whole JSON, so the masking could not be applied to it.';
  if (message.body.masked === 'masked')
    return "Masked: values at this cluster's masking paths are shown as ***.";
  if (!message.body.truncated) return null;
  const left = message.body.omitted === null ? 'the rest' : `${formatNumber(message.body.omitted)} more`;
  return `Cut by the broker: ${left} not shown. The broker's management-message-attribute-size-limit (256 by default, -1 for none) in its address settings decides how much it shows; what is shown here is never the whole body.`;
}

/**
 * What a body filter's one read of the queue found: how many it read and matched, whether it read
 * to the end (and if not, what stopped it), and what no action can reach or the filter could not read.
 */
export function bodyScanText(scan: BodyScan): string {
  const stopped = {
    page: 'stopped once the page was full',
    messages: 'stopped at its budget of messages',
    time: 'stopped at its budget of time',
  };
  const parts = [
    `${scan.complete ? '' : 'at least '}${formatNumber(scan.matched)} match of ${formatNumber(scan.scanned)} read` +
      (scan.complete
        ? ' (the whole queue)'
        : ` (${scan.stoppedBy ? stopped[scan.stoppedBy] : 'not to the end'})`),
  ];
  if (scan.unselectable > 0)
    parts.push(
      `${formatNumber(scan.unselectable)} carry no message id of their own: no action reaches them (an export does)`,
    );
  if (scan.failed > 0)
    parts.push(
      `${formatNumber(scan.failed)} could not be read by the expression (${scan.firstFailure ?? 'no reason given'})`,
    );
  return parts.join(' · ');
}

/** "12 match" or "at least 3 match (the broker looked at the first 200 messages only)". */
export function matchedText(
  matched: NonNullable<QueueMessagesPage['matched']>,
  browseLimit: number | null,
): string {
  if (!matched.atLeast) return `${formatNumber(matched.count)} match`;
  const why =
    browseLimit === null
      ? 'the broker may not have looked at every message'
      : `the broker looked at the first ${formatNumber(browseLimit)} messages only`;
  return `at least ${formatNumber(matched.count)} match (${why})`;
}

/**
 * "name=value" lines as String headers, and "name:long=42" (`:int`, `:double`, `:boolean`,
 * `:string`) as typed properties; or what is wrong with the first line that is neither.
 */
export function parseHeaders(
  text: string,
): { headers: Record<string, string>; properties: TypedProperty[] } | { error: string } {
  const headers: Record<string, string> = {};
  const properties: TypedProperty[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    if (at < 1) return { error: `line ${i + 1} is not name=value` };
    const left = line.slice(0, at).trim();
    const value = line.slice(at + 1);
    const colon = left.lastIndexOf(':');
    const type = PROPERTY_TYPES.find((t) => t === left.slice(colon + 1));
    if (colon < 1 || type === undefined) {
      headers[left] = value;
      continue;
    }
    const name = left.slice(0, colon);
    const problem = propertyValueProblem(type, value.trim());
    if (problem) return { error: `line ${i + 1}: ${problem}` };
    properties.push({ name: name.trim(), type, value: value.trim() });
  }
  return { headers, properties };
}

/** The bytes of a base64 body. */
function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** Bytes as hex pairs, a space between each. */
const hexOf = (bytes: Uint8Array): string => [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ');

/** A bytes body as the drawer shows it: hex sixteen bytes to a line, UTF-8 text, or base64. */
export function bytesView(base64: string, view: 'hex' | 'text' | 'base64'): string {
  if (view === 'base64') return base64;
  const bytes = bytesOf(base64);
  if (view === 'text') return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16)
    lines.push(`${at.toString(16).padStart(8, '0')}  ${hexOf(bytes.subarray(at, at + 16))}`);
  return lines.join('\n');
}
