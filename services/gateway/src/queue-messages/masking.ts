import {
  MASK,
  maskAt,
  pathSegments,
  propertyMasked,
  type BrowsedMessage,
  type ExportedMessage,
  type MaskingRules,
  type QueueMessagesPage,
} from '@artemis-studio/contracts';

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
  const body = maskedBody(message.body.preview, message.body.encoding, message.body.truncated, rules);
  return {
    ...message,
    properties,
    propertyTypes,
    ...(body && { body: { ...message.body, preview: body.text, masked: body.masked } }),
  };
}

/**
 * A body with the rules' body paths applied: null when there is nothing to do (no body path, no
 * body), else the body to show and how masking touched it. A body the rules cannot be applied to
 * (not JSON, or cut) is withheld whole: a rule that cannot be applied never lets the value through.
 * A bytes body (`base64`) is masked as the JSON its bytes spell, when they spell one.
 */
function maskedBody(
  text: string | null,
  encoding: 'text' | 'base64' | 'value',
  truncated: boolean,
  rules: MaskingRules,
): { text: string | null; masked: 'masked' | 'withheld' | null } | null {
  if (rules.bodyPaths.length === 0 || text === null) return null;
  const asText = (p: string) => (encoding === 'base64' ? Buffer.from(p, 'base64').toString('utf8') : p);
  const asSent = (t: string) => (encoding === 'base64' ? Buffer.from(t, 'utf8').toString('base64') : t);
  let parsed: unknown;
  try {
    parsed = truncated ? undefined : JSON.parse(asText(text));
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || parsed === null || typeof parsed !== 'object')
    return { text: null, masked: 'withheld' };
  const masked = rules.bodyPaths.reduce((sum, path) => sum + maskAt(parsed, pathSegments(path)), 0);
  return { text: asSent(JSON.stringify(parsed)), masked: masked > 0 ? 'masked' : null };
}

/**
 * An exported message with the cluster's masking rules applied, as for a browse: a masked
 * property keeps its name and says it is masked (an import leaves it out), a body as above.
 */
export function maskExported(message: ExportedMessage, rules: MaskingRules): ExportedMessage {
  if (rules.properties.length === 0 && rules.bodyPaths.length === 0) return message;
  const properties = message.properties.map((p) =>
    propertyMasked(p.name, rules) ? { ...p, value: MASK, masked: true } : p,
  );
  const body = maskedBody(message.body.data, message.body.encoding, message.body.truncated, rules);
  return {
    ...message,
    properties,
    ...(body && { body: { ...message.body, data: body.text, masked: body.masked } }),
  };
}

export const maskPage = (page: QueueMessagesPage, rules: MaskingRules): QueueMessagesPage =>
  rules.properties.length === 0 && rules.bodyPaths.length === 0
    ? page
    : { ...page, messages: page.messages.map((m) => maskMessage(m, rules)) };
