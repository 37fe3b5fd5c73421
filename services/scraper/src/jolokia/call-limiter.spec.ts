import { CallLimiter } from './call-limiter';

describe('CallLimiter', () => {
  it('allows a burst of the budget, refuses the next call and counts it, then refills over time', () => {
    let now = 0;
    const refused: string[] = [];
    const sut = new CallLimiter(
      3,
      (key) => refused.push(key),
      () => now,
    );
    expect([1, 2, 3, 4].map(() => sut.tryAcquire('n1'))).toEqual([true, true, true, false]);
    expect(refused).toEqual(['n1']);
    now += 340; // about one token
    expect(sut.tryAcquire('n1')).toBe(true);
    expect(sut.tryAcquire('n1')).toBe(false);
  });

  it('keeps one budget per node', () => {
    const sut = new CallLimiter(1, undefined, () => 0);
    expect(sut.tryAcquire('a')).toBe(true);
    expect(sut.tryAcquire('b')).toBe(true);
    expect(sut.tryAcquire('a')).toBe(false);
  });

  it('lets an action wait for the next call instead of being refused, and gives up after its wait', async () => {
    let now = 0;
    const refused: string[] = [];
    const sut = new CallLimiter(
      2,
      (key) => refused.push(key),
      () => now,
    );
    const sleep = async (ms: number) => void (now += ms);
    sut.tryAcquire('n1');
    sut.tryAcquire('n1');
    expect(await sut.acquire('n1', 5000, sleep)).toBe(true);
    expect(now).toBeGreaterThanOrEqual(500);
    expect(refused).toEqual([]);
    const before = now;
    expect(await sut.acquire('n1', 0, sleep)).toBe(false);
    expect(now).toBe(before);
    expect(refused).toEqual(['n1']);
  });
});
