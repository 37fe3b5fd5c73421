import type { UnobservedPeriod } from '@artemis-studio/contracts';
import { formatDuration, formatInstant } from '../../lib/ui/format';
import { dropPeriod } from './drops';

/**
 * "Notifications not observed between … and … (40 s): <why>. Broker events from then may be
 * missing.": the row the feed shows where Studio had no subscription (ADR-0010). The broker keeps
 * nothing for an absent subscriber, so how many were missed cannot be known, only when.
 */
export function describeUnobserved(period: UnobservedPeriod): string {
  const when = period.from
    ? `${dropPeriod({ firstAt: period.from, lastAt: period.until })} ` +
      `(${formatDuration(Date.parse(period.until) - Date.parse(period.from))})`
    : `before ${formatInstant(period.until)}`;
  return `Notifications not observed ${when}: ${period.reason}. Broker events from then may be missing.`;
}
