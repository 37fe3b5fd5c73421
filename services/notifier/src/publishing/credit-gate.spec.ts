import { CreditGate } from './credit-gate';

describe('CreditGate', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('never grants more than the buffer could take, however many subscriptions ask', () => {
    const gate = new CreditGate({ capacity: 100, holdLimitMs: 60_000 });
    const subscriptions = Array.from({ length: 8 }, () => gate.take(30));
    expect(subscriptions.reduce((a, b) => a + b, 0)).toBe(100);
    gate.bufferedNow(0);
    expect(gate.take(1)).toBe(0);
  });

  it('holds a subscription that finds the pool empty, and grants it when a quarter is free again', () => {
    const gate = new CreditGate({ capacity: 100, holdLimitMs: 60_000, now: () => 1234 });
    expect(gate.take(100)).toBe(100);
    for (let i = 0; i < 100; i++) gate.used();
    gate.bufferedNow(100);
    const grant = jest.fn();
    gate.whenOpen(grant);
    expect(grant).not.toHaveBeenCalled();
    expect(gate.heldSince()).toBe(1234);
    gate.bufferedNow(90);
    expect(grant).not.toHaveBeenCalled();
    gate.bufferedNow(75);
    expect(grant).toHaveBeenCalledTimes(1);
    expect(gate.heldSince()).toBeUndefined();
  });

  it('shares half the pool among the subscriptions when their windows would not fit in it', () => {
    const gate = new CreditGate({ capacity: 100, holdLimitMs: 60_000 });
    const leaves = Array.from({ length: 11 }, () => gate.join());
    expect(gate.window(10)).toBe(4);
    leaves.slice(1).forEach((leave) => leave());
    leaves[1](); // A second leave changes nothing.
    expect(gate.window(10)).toBe(10);
    expect(gate.window(500)).toBe(50);
  });

  it('ends a hold once the buffer has drained, though quiet nodes keep most of the pool granted', () => {
    const gate = new CreditGate({ capacity: 100, holdLimitMs: 60_000 });
    expect(gate.take(80)).toBe(80); // quiet nodes: granted while few shared the pool, never used
    expect(gate.take(20)).toBe(20);
    for (let i = 0; i < 20; i++) gate.used();
    gate.bufferedNow(20);
    const busy = jest.fn();
    gate.whenOpen(busy);
    gate.bufferedNow(5);
    expect(busy).not.toHaveBeenCalled(); // 15 free of 100: the buffer still drains
    gate.bufferedNow(0);
    expect(busy).toHaveBeenCalledTimes(1);
    expect(gate.heldSince()).toBeUndefined();
    expect(gate.take(10)).toBe(10);
  });

  it('ends a hold when an ended subscription gives back enough credit', () => {
    const gate = new CreditGate({ capacity: 100, holdLimitMs: 60_000 });
    expect(gate.take(90)).toBe(90);
    expect(gate.take(10)).toBe(10);
    const grant = jest.fn();
    gate.whenOpen(grant);
    gate.returned(90, () => undefined);
    expect(grant).toHaveBeenCalledTimes(1);
  });

  it('takes back what an ended subscription did not use, and forgets its grant', () => {
    const gate = new CreditGate({ capacity: 10, holdLimitMs: 60_000 });
    expect(gate.take(10)).toBe(10);
    const grant = jest.fn();
    gate.whenOpen(grant);
    gate.returned(10, grant);
    gate.bufferedNow(0);
    expect(grant).not.toHaveBeenCalled();
    expect(gate.take(10)).toBe(10);
  });

  it('grants whatever the buffer holds once the limit is reached, until the buffer has drained', () => {
    const released: [number, boolean][] = [];
    let now = 0;
    const gate = new CreditGate({
      capacity: 10,
      holdLimitMs: 60_000,
      now: () => now,
      onRelease: (ms, over) => released.push([ms, over]),
    });
    gate.take(10);
    for (let i = 0; i < 10; i++) gate.used();
    gate.bufferedNow(10);
    const grant = jest.fn();
    gate.whenOpen(grant);
    now = 60_000;
    jest.advanceTimersByTime(60_000);
    expect(grant).toHaveBeenCalledTimes(1);
    expect(released).toEqual([[60_000, true]]);
    // Still full: holding again now would make the limit bound nothing.
    expect(gate.take(5)).toBe(5);
    gate.bufferedNow(0);
    gate.used();
    gate.used();
    gate.used();
    gate.used();
    gate.used();
    gate.bufferedNow(10);
    expect(gate.take(5)).toBe(0);
  });

  it('keeps holding a subscription that reads a ring past the limit: the ring is the bound, and counts', () => {
    const gate = new CreditGate({ capacity: 10, holdLimitMs: 60_000 });
    gate.take(10);
    for (let i = 0; i < 10; i++) gate.used();
    gate.bufferedNow(10);
    const temporary = jest.fn();
    gate.whenOpen(temporary);
    jest.advanceTimersByTime(60_000);
    expect(temporary).toHaveBeenCalledTimes(1);
    expect(gate.take(5, true)).toBe(0);
    const ring = jest.fn();
    gate.whenOpen(ring, true);
    expect(ring).not.toHaveBeenCalled();
    gate.bufferedNow(2);
    expect(ring).toHaveBeenCalledTimes(1);
    expect(gate.take(20, true)).toBe(8);
  });
});
