import type { BrowsedMessage, MaskingRules, QueueMessagesPage } from '@artemis-studio/contracts';

/** What a masked value is replaced with. */
export const MASK = '***';

type Segment = { name: string } | { index: number } | 'any';

/** `$.items[*].card` as its steps; the path's syntax is checked by the contract (BODY_PATH). */
export function pathSegments(path: string): Segment[] {
  const segments: Segment[] = [];
  for (const [, name, index] of path.slice(1).matchAll(/\.([^.[]+)|\[(\*|\d+)\]/g))
    segments.push(name !== undefined ? { name } : index === '*' ? 'any' : { index: Number(index) });
  return segments;
}

/** Replaces, in place, every value the path reaches; answers how many it replaced. */
function maskAt(value: unknown, segments: Segment[]): number {
  if (segments.length === 0 || value === null || typeof value !== 'object') return 0;
  const [step, ...rest] = segments;
  const container = value as Record<string, unknown>;
  const keys =
    step === 'any'
      ? Object.keys(container)
      : 'name' in step
        ? [step.name]
        : Array.isArray(value)
          ? [String(step.index)]
          : [];
  let masked = 0;
  for (const key of keys) {
    if (!(key in container)) continue;
    if (rest.length === 0) {
      container[key] = MASK;
      masked++;
    } else masked += maskAt(container[key], rest);
  }
  return masked;
}

/** A property is masked by its full name or by its name without the broker's section prefix. */
const propertyMasked = (name: string, rules: MaskingRules): boolean =>
  rules.properties.some((rule) => rule === name || name.endsWith(`.${rule}`));

/**
 * A browsed message with the cluster's masking rules applied. A body the rules cannot be applied
 * to (not JSON, or cut by the broker) is withheld whole while any body path is set: a rule that
 * cannot be applied never lets the value through.
 */
export function maskMessage(message: BrowsedMessage, rules: MaskingRules): BrowsedMessage {
  const properties = Object.fromEntries(
    Object.entries(message.properties).map(([name, value]) => [
      name,
      propertyMasked(name, rules) ? MASK : value,
    ]),
  );
  // A masked property has no type: its value is not the broker's, and a resend must not send it.
  const propertyTypes = Object.fromEntries(
    Object.entries(message.propertyTypes).filter(([name]) => !propertyMasked(name, rules)),
  );
  const { preview, encoding } = message.body;
  if (rules.bodyPaths.length === 0 || preview === null) return { ...message, properties, propertyTypes };
  // A bytes body is masked as the JSON its bytes spell, when they spell one.
  const asText = (p: string) => (encoding === 'base64' ? Buffer.from(p, 'base64').toString('utf8') : p);
  const asSent = (text: string) =>
    encoding === 'base64' ? Buffer.from(text, 'utf8').toString('base64') : text;
  let parsed: unknown;
  try {
    parsed = message.body.truncated ? undefined : JSON.parse(asText(preview));
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || parsed === null || typeof parsed !== 'object')
    return {
      ...message,
      properties,
      propertyTypes,
      body: { ...message.body, preview: null, masked: 'withheld' },
    };
  const masked = rules.bodyPaths.reduce((sum, path) => sum + maskAt(parsed, pathSegments(path)), 0);
  return {
    ...message,
    properties,
    propertyTypes,
    body: {
      ...message.body,
      preview: asSent(JSON.stringify(parsed)),
      masked: masked > 0 ? 'masked' : null,
    },
  };
}

export const maskPage = (page: QueueMessagesPage, rules: MaskingRules): QueueMessagesPage =>
  rules.properties.length === 0 && rules.bodyPaths.length === 0
    ? page
    : { ...page, messages: page.messages.map((m) => maskMessage(m, rules)) };
