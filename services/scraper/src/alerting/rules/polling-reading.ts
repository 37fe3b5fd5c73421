import { globMatcher } from '@artemis-studio/contracts';
import type { Reading, RuleCondition } from './conditions';

/** What any scraper replica can tell of who polls a cluster, owner or not. */
export interface PollingFacts {
  /** Some scraper replica holds the cluster's lease, unexpired. */
  owned: boolean;
  /** When the cluster's nodes were last observed at tier A, by whichever owner; null: never. */
  lastPolledAt: Date | null;
}

/**
 * The `studio-scraper-unowned` rule's one reading (subject `scraper`): it holds when no replica
 * holds the lease, or when the one holding it has not observed the nodes for `staleAfterMs` (an
 * owner that renews its lease but whose ticks do not run polls nothing either). The value is how
 * old the cluster's figures are, in seconds; null when it was never polled.
 */
export function readPolling(
  rule: RuleCondition,
  facts: PollingFacts,
  now: Date,
  staleAfterMs: number,
): Reading[] {
  if (rule.kind !== 'studio-scraper-unowned' || !globMatcher(rule.subjects)('scraper')) return [];
  const ageMs = facts.lastPolledAt === null ? null : now.getTime() - facts.lastPolledAt.getTime();
  return [
    {
      subject: 'scraper',
      holds: !facts.owned || ageMs === null || ageMs > staleAfterMs,
      value: ageMs === null ? null : Math.max(0, Math.round(ageMs / 1000)),
    },
  ];
}
