import type { BrowsedMessage, BrowsedPropertyType, PropertyType } from '@artemis-studio/contracts';

/** A message ready to be edited and sent again: the send form's body and header lines. */
export interface ResendDraftReady {
  body: string;
  encoding: 'text' | 'base64';
  /** `name=value` and `name:long=42` lines, as the send form takes them. */
  headers: string;
  durable: boolean;
  /** Properties sent as a wider type than the broker kept (a short as an int), said on the form. */
  widened: string[];
}

/**
 * Property names the broker or the protocol sets (its trail, the AMQP sections, JMSX): not the
 * application's, and not sent again.
 */
const NOT_THE_APPLICATIONS =
  /^(_AMQ|_HQ|__AMQ|__HDR|JMSX|properties\.|extraProperties\.|messageAnnotations\.|deliveryAnnotations\.|header\.|footer\.)/;
/** How Artemis names an AMQP message's application properties in `browse`. */
const APPLICATION_PREFIX = 'applicationProperties.';

/** The type a send takes for each type the broker keeps. */
const SENT_AS: Record<BrowsedPropertyType, PropertyType> = {
  string: 'string',
  long: 'long',
  int: 'int',
  short: 'int',
  byte: 'int',
  boolean: 'boolean',
  double: 'double',
  float: 'double',
};

/**
 * A browsed message as a draft to send again, or why it cannot be one: a resend sends what the
 * console shows, so a body that is cut, masked or not shown, or a masked property, would go out
 * as something else than the message.
 */
export function resendDraft(m: BrowsedMessage): ResendDraftReady | { refusal: string } {
  if (m.largeMessage)
    return { refusal: 'a large message: the broker does not show its body over management' };
  if (m.body.preview === null) return { refusal: 'the broker shows no body for it' };
  if (m.body.truncated)
    return {
      refusal:
        'the broker shows only the start of its body (its attribute size limit): a resend would cut it',
    };
  if (m.body.masked !== null)
    return { refusal: 'its body is masked on this cluster: a resend would send the masks' };
  const lines: string[] = [];
  const masked: string[] = [];
  const widened: string[] = [];
  for (const [raw, value] of Object.entries(m.properties)) {
    if (NOT_THE_APPLICATIONS.test(raw) || value === null) continue;
    const name = raw.startsWith(APPLICATION_PREFIX) ? raw.slice(APPLICATION_PREFIX.length) : raw;
    const kept = m.propertyTypes[raw] as BrowsedPropertyType | undefined;
    if (kept === undefined) {
      masked.push(name);
      continue;
    }
    const as = SENT_AS[kept];
    if (as !== kept) widened.push(`${name} (${kept} as ${as})`);
    if (String(value).includes('\n'))
      return { refusal: `its property ${name} holds a line break, which the form cannot carry` };
    lines.push(as === 'string' ? `${name}=${String(value)}` : `${name}:${as}=${String(value)}`);
  }
  if (masked.length > 0)
    return {
      refusal: `its properties ${masked.join(', ')} are masked on this cluster: a resend would lose them`,
    };
  return {
    body: m.body.preview,
    encoding: m.body.encoding,
    headers: lines.join('\n'),
    durable: m.durable,
    widened,
  };
}
