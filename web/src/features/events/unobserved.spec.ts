import { describe, expect, it } from 'vitest';
import { formatInstant, formatTime } from '../../lib/ui/format';
import { describeUnobserved } from './unobserved';

describe('describeUnobserved', () => {
  const from = '2026-11-30T10:42:00.000Z';
  const until = '2026-11-30T10:42:40.000Z';

  it('says when, for how long and why, and that events from then may be missing', () => {
    expect(describeUnobserved({ from, until, reason: 'the subscription to primary was lost' })).toBe(
      `Broker events may be missing between ${formatInstant(from)} and ${formatTime(until)} (40 s). ` +
        'Notifications were not observed: the subscription to primary was lost.',
    );
  });

  it('says only "before" when the start could not be known', () => {
    expect(describeUnobserved({ from: null, until, reason: 'the mark could not be read' })).toBe(
      `Broker events may be missing before ${formatInstant(until)}. ` +
        'Notifications were not observed: the mark could not be read.',
    );
  });
});
