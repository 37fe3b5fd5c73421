import { backoffMs } from './alert-courier';

describe('delivery backoff', () => {
  it('doubles from two seconds and stays at five minutes', () => {
    expect([1, 2, 3, 8, 9, 20].map(backoffMs)).toEqual([2_000, 4_000, 8_000, 256_000, 300_000, 300_000]);
  });
});
