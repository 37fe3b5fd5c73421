import { Backoff } from './backoff';

describe('Backoff', () => {
  it('doubles its bound from 1 s up to 5 min, drawing below it', () => {
    const sut = new Backoff(1000, 300_000, () => 0.999999);
    const delays = Array.from({ length: 12 }, () => sut.next());
    expect(delays.slice(0, 4)).toEqual([999, 1999, 3999, 7999]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(300_000);
    expect(delays[11]).toBe(299_999);
  });

  it('uses full jitter and resets after a healthy subscription', () => {
    const sut = new Backoff(1000, 300_000, () => 0.5);
    sut.next();
    sut.next();
    expect(sut.next()).toBe(2000);
    sut.reset();
    expect(sut.next()).toBe(500);
  });

  it('never returns a zero delay (a tight loop against a dead host)', () => {
    expect(new Backoff(1000, 300_000, () => 0).next()).toBe(100);
  });
});
