import type { EventDrops } from '@artemis-studio/contracts';
import { formatInstant, formatNumber, formatTime } from '../../lib/ui/format';

const WHERE: Record<EventDrops['source'], string> = {
  'broker-ring': "discarded by Studio's ring on the broker (the oldest went while nobody read it)",
  notifier: 'lost at the notifier (never on the bus)',
  'event-store': 'lost at the event store (never written)',
  stream: 'lost at the live stream (never sent to a console)',
};

/** The period a source's drops cover: one instant, or first to last (the time alone when the day is the same). */
export function dropPeriod(d: Pick<EventDrops, 'firstAt' | 'lastAt'>): string {
  if (d.firstAt === d.lastAt) return `at ${formatInstant(d.firstAt)}`;
  const sameDay = new Date(d.firstAt).toDateString() === new Date(d.lastAt).toDateString();
  return `between ${formatInstant(d.firstAt)} and ${sameDay ? formatTime(d.lastAt) : formatInstant(d.lastAt)}`;
}

/** "7 events lost at the notifier (never on the bus), between … and …". */
export function describeDrops(d: EventDrops): string {
  return `${formatNumber(d.dropped)} event${d.dropped === 1 ? '' : 's'} ${WHERE[d.source]}, ${dropPeriod(d)}`;
}
