import { describe, expect, it } from 'vitest';
import { shownIndex, stepFrom } from './drawer-steps';

describe("the message drawer's Previous and Next", () => {
  const middle = { page: 2, count: 25, last: false };

  it('moves within the page while it can', () => {
    expect(stepFrom(3, 1, middle)).toEqual({ at: { index: 4 }, page: 2 });
    expect(stepFrom(3, -1, middle)).toEqual({ at: { index: 2 }, page: 2 });
  });

  it("crosses to the next page's first message and the previous page's last", () => {
    expect(stepFrom(24, 1, middle)).toEqual({ at: { index: 24, then: 'first' }, page: 3 });
    expect(stepFrom(0, -1, middle)).toEqual({ at: { index: 0, then: 'last' }, page: 1 });
  });

  it("stops at the queue's first and last message", () => {
    expect(stepFrom(0, -1, { page: 1, count: 25, last: false })).toBeNull();
    expect(stepFrom(6, 1, { page: 3, count: 7, last: true })).toBeNull();
  });

  it('shows the message it came from until the page stepped to is in, then that page’s edge', () => {
    expect(shownIndex({ index: 24, then: 'first' }, 25, false)).toBe(24);
    expect(shownIndex({ index: 24, then: 'first' }, 25, true)).toBe(0);
    expect(shownIndex({ index: 0, then: 'last' }, 25, true)).toBe(24);
    expect(shownIndex({ index: 5 }, 25, true)).toBe(5);
    expect(shownIndex(null, 25, true)).toBeNull();
  });
});
