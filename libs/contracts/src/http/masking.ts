import type { MaskingRules } from './clusters';

/*
 * The cluster's masking rules, applied where message contents are shown (the gateway) and where a
 * body filter reads them (the owner, ADR-0038), so a filter sees no more than the person asking.
 */

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
export function maskAt(value: unknown, segments: Segment[]): number {
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
export const propertyMasked = (name: string, rules: MaskingRules): boolean =>
  rules.properties.some((rule) => rule === name || name.endsWith(`.${rule}`));
