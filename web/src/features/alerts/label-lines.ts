/** A label name as Alertmanager and the API take it. */
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** A rule's labels as the form shows them: one `name=value` a line, in name order. */
export const labelLines = (labels: Record<string, string>): string =>
  Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');

/**
 * `name=value` lines (blank lines skipped) as a rule's labels, or what is wrong with the first
 * line that is not one: a label such as `team=payments` goes with every notification of the alert.
 */
export function parseLabelLines(text: string): { labels: Record<string, string> } | { error: string } {
  const labels: Record<string, string> = {};
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf('=');
    const name = at < 0 ? line : line.slice(0, at).trim();
    if (at < 0 || !LABEL_NAME.test(name))
      return {
        error: `line ${i + 1}: a label is name=value, its name letters, digits and _ (${line.slice(0, 40)})`,
      };
    if (name in labels) return { error: `line ${i + 1}: ${name} is given twice` };
    labels[name] = line.slice(at + 1).trim();
  }
  return { labels };
}
