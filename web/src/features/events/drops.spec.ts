import { describe, expect, it } from 'vitest';
import { formatInstant, formatTime } from '../../lib/ui/format';
import { describeDrops, dropPeriod } from './drops';

describe('drops', () => {
  const first = '2026-11-30T10:42:00.000Z';
  const last = '2026-11-30T10:44:30.000Z';

  it('states where events were lost, how many, and the period the losses cover', () => {
    expect(describeDrops({ source: 'notifier', dropped: 7, firstAt: first, lastAt: last })).toBe(
      `7 events lost at the notifier (never on the bus), between ${formatInstant(first)} and ${formatTime(last)}`,
    );
    expect(describeDrops({ source: 'stream', dropped: 1, firstAt: first, lastAt: first })).toBe(
      `1 event lost at the live stream (never sent to a console), at ${formatInstant(first)}`,
    );
  });

  it('repeats the date only when the period spans days', () => {
    const nextDay = '2026-12-02T09:00:00.000Z';
    expect(dropPeriod({ firstAt: first, lastAt: nextDay })).toBe(
      `between ${formatInstant(first)} and ${formatInstant(nextDay)}`,
    );
  });
});
