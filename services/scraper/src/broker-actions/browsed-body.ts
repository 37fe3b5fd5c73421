import type { BrowsedMessage } from '@artemis-studio/contracts';

/** How the broker marks a value it cut at its attribute size limit: "…, + 744 more". */
const CUT = /, \+ (\d+) more$/;

/** The broker's default `management-message-attribute-size-limit`: what it shows of a body. */
export const DEFAULT_ATTRIBUTE_SIZE_LIMIT = 256;

/**
 * A body an AMQP message carries as bytes, as the broker writes it (checked on 2.40): printable
 * ASCII as itself and every other byte as `\xNN`, a backslash too (`\x5c`), so it reads back
 * exactly; a data section wrapped in `Data{…}`. A cut can fall inside an escape: that byte is
 * dropped, not guessed.
 */
export function unescapeBytes(shown: string, cut: boolean): Buffer {
  let inner = shown;
  if (inner.startsWith('Data{')) inner = inner.slice('Data{'.length, cut ? undefined : -1);
  const bytes: number[] = [];
  const escape = /\\x([0-9a-fA-F]{2})/y;
  for (let i = 0; i < inner.length;) {
    if (inner[i] === '\\') {
      escape.lastIndex = i;
      const hex = escape.exec(inner)?.[1];
      if (hex !== undefined) {
        bytes.push(parseInt(hex, 16));
        i += 4;
        continue;
      }
      if (cut && inner.length - i < 4) break;
    }
    const char = String.fromCodePoint(inner.codePointAt(i)!);
    bytes.push(...Buffer.from(char, 'utf8'));
    i += char.length;
  }
  return Buffer.from(bytes);
}

/**
 * A browsed message's body in the API's shape. Text as the broker shows it; bytes as base64 of
 * what it shows: a core message's `BodyPreview` (signed bytes, cut silently at the limit, so a
 * preview as long as the limit counts as cut), an AMQP message's escaped text read back.
 */
export function browsedBody(
  raw: Record<string, unknown>,
  bytesType: boolean,
  attributeSizeLimit: number,
): BrowsedMessage['body'] {
  // A large message's body stays in its file: the broker shows "... Large message ..." in its place.
  if (raw.largeMessage === true)
    return { preview: null, encoding: 'text', truncated: true, omitted: null, masked: null };
  if (Array.isArray(raw.BodyPreview)) {
    const bytes = Buffer.from((raw.BodyPreview as number[]).map((b) => b & 0xff));
    const cut = attributeSizeLimit >= 0 && bytes.length >= attributeSizeLimit;
    return {
      preview: bytes.toString('base64'),
      encoding: 'base64',
      truncated: cut,
      omitted: null,
      masked: null,
    };
  }
  const shown = typeof raw.text === 'string' ? raw.text : null;
  const cut = shown === null ? null : CUT.exec(shown);
  const kept = cut ? shown!.slice(0, cut.index) : shown;
  if (kept !== null && bytesType)
    return {
      preview: unescapeBytes(kept, cut !== null).toString('base64'),
      encoding: 'base64',
      truncated: cut !== null,
      // The broker counted escaped characters, not bytes.
      omitted: null,
      masked: null,
    };
  return {
    preview: kept,
    encoding: 'text',
    truncated: cut !== null,
    omitted: cut ? Number(cut[1]) : null,
    masked: null,
  };
}
