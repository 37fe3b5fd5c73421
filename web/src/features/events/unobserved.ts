import type { UnobservedPeriod } from '@artemis-studio/contracts';
import { formatDuration, formatInstant } from '../../lib/ui/format';
import { dropPeriod } from './drops';

/**
 * "Broker events may be missing between … and … (40 s). Notifications were not observed: <why>.":
 * the row the feed shows where Studio had no subscription (ADR-0010). The broker keeps nothing for
 * an absent subscriber, so how many were missed cannot be known, only when. What it means and
 * when come first: the row is one line, and a long reason is cut off at its end (whole on hover
 * and in the drawer).
 */
export function describeUnobserved(period: UnobservedPeriod): string {
  const when = period.from
    ? `${dropPeriod({ firstAt: period.from, lastAt: period.until })} ` +
      `(${formatDuration(Date.parse(period.until) - Date.parse(period.from))})`
    : `before ${formatInstant(period.until)}`;
  return `Broker events may be missing ${when}. Notifications were not observed: ${period.reason}.`;
}
