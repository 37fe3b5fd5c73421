import { describe, expect, it } from 'vitest';
import { pagesFor } from './use-queue-rows';

describe('pagesFor', () => {
  it('reads only the pages the visible rows fall in, and always the first (the total)', () => {
    expect(pagesFor(0, 30)).toEqual([1]);
    expect(pagesFor(95, 130)).toEqual([1, 2]);
    expect(pagesFor(9_950, 9_999)).toEqual([1, 100]);
    expect(pagesFor(5_020, 5_060)).toEqual([1, 51]);
  });
});
