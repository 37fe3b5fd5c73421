import { describe, expect, it } from 'vitest';
import { actionMarkers, actionText } from './alert-markers';

describe("the people's actions on an alert's chart", () => {
  it('says what was done, by whom, and the counts it reported', () => {
    expect(
      actionText({
        at: '2026-12-07T10:00:00Z',
        action: 'queue.purge',
        actor: 'alice',
        counts: { messages: 5 },
      }),
    ).toBe('queue.purge by alice (messages 5)');
    expect(actionText({ at: '2026-12-07T10:00:00Z', action: 'queue.pause', actor: 'bob', counts: {} })).toBe(
      'queue.pause by bob',
    );
  });

  it('puts each at its moment, apart in colour from the broker events', () => {
    const [marker] = actionMarkers([
      { at: '2026-12-07T10:00:00Z', action: 'queue.pause', actor: 'bob', counts: {} },
    ]);
    expect(marker).toEqual({
      t: Date.UTC(2026, 11, 7, 10) / 1000,
      label: 'queue.pause by bob',
      color: '#7950f2',
    });
  });
});
