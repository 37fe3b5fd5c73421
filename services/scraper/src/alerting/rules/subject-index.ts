import { globMatcher } from '@artemis-studio/contracts';

/**
 * The subjects of one tick by name, for many rules to pick from: a name without `*` is a lookup,
 * `*` is everything, `prefix*` a range of the names in order (found by binary search: a thousand
 * rules on families of queues would otherwise test every name against every pattern, most of an
 * evaluation's time), and any other pattern is matched once per tick however many rules share it.
 */
export class SubjectIndex<T extends { name: string }> {
  private readonly byName: ReadonlyMap<string, T>;
  private readonly matched = new Map<string, readonly T[]>();
  private everything: readonly T[] | null = null;
  private ordered: readonly T[] | null = null;

  constructor(subjects: readonly T[] | ReadonlyMap<string, T>) {
    this.byName = Array.isArray(subjects)
      ? new Map(subjects.map((s) => [s.name, s]))
      : (subjects as ReadonlyMap<string, T>);
  }

  private get all(): readonly T[] {
    return (this.everything ??= [...this.byName.values()]);
  }

  /**
   * Sorted by name in code-unit order, once per tick, at the first prefix pattern: the names are
   * sorted as plain strings (the engine's own comparison, several times faster than a comparator).
   */
  private get sorted(): readonly T[] {
    return (this.ordered ??= [...this.byName.keys()].sort().map((name) => this.byName.get(name)!));
  }

  select(pattern: string): readonly T[] {
    if (pattern === '*') return this.all;
    const star = pattern.indexOf('*');
    if (star < 0) {
      const one = this.byName.get(pattern);
      return one ? [one] : [];
    }
    let hit = this.matched.get(pattern);
    if (!hit) {
      hit = star === pattern.length - 1 ? this.withPrefix(pattern.slice(0, -1)) : this.scan(pattern);
      this.matched.set(pattern, hit);
    }
    return hit;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  private withPrefix(prefix: string): readonly T[] {
    const sorted = this.sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid].name < prefix) lo = mid + 1;
      else hi = mid;
    }
    let end = lo;
    while (end < sorted.length && sorted[end].name.startsWith(prefix)) end++;
    return sorted.slice(lo, end);
  }

  private scan(pattern: string): readonly T[] {
    const matches = globMatcher(pattern);
    return this.all.filter((s) => matches(s.name));
  }
}
