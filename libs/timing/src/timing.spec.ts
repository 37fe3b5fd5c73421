import { Backoff, jitteredDelay, sleep, withTimeout } from './timing';

describe('Backoff', () => {
  it('doubles its bound from the floor up to the cap, drawing below it', () => {
    const sut = new Backoff({ minMs: 1000, maxMs: 300_000, random: () => 0.999999 });
    const delays = Array.from({ length: 12 }, () => sut.next());
    expect(delays.slice(0, 4)).toEqual([999, 1999, 3999, 7999]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(300_000);
    expect(delays[11]).toBe(299_999);
  });

  it('uses full jitter and starts again from the floor after a reset', () => {
    const sut = new Backoff({ minMs: 1000, maxMs: 300_000, random: () => 0.5 });
    sut.next();
    sut.next();
    expect(sut.next()).toBe(2000);
    sut.reset();
    expect(sut.next()).toBe(500);
  });

  it('never returns a zero delay (a tight loop against a dead host), nor overflows', () => {
    expect(jitteredDelay(0, { minMs: 1000, maxMs: 300_000, random: () => 0 })).toBe(100);
    expect(jitteredDelay(5000, { minMs: 1000, maxMs: 300_000, random: () => 0.5 })).toBe(150_000);
  });
});

describe('sleep', () => {
  it('ends at once when its signal aborts, and does not start when already aborted', async () => {
    const stop = new AbortController();
    const started = Date.now();
    const sleeping = sleep(60_000, stop.signal);
    stop.abort();
    await sleeping;
    await sleep(60_000, stop.signal);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('waits the time it is given', async () => {
    const started = Date.now();
    await sleep(30);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('withTimeout', () => {
  it("gives the promise's value when it comes first", async () => {
    await expect(withTimeout(Promise.resolve(1), 1000, () => 2)).resolves.toBe(1);
  });

  it('gives what onTimeout returns or throws when time runs out first', async () => {
    const never = new Promise<number>(() => undefined);
    await expect(withTimeout(never, 10, () => null)).resolves.toBeNull();
    await expect(
      withTimeout(never, 10, () => {
        throw new Error('too slow');
      }),
    ).rejects.toThrow('too slow');
  });
});
