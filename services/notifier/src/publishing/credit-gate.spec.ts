import { CreditGate } from './credit-gate';

describe('CreditGate', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('grants at once while open, and only once released while held', () => {
    const gate = new CreditGate({ holdLimitMs: 60_000 });
    const grants: string[] = [];
    gate.whenOpen(() => grants.push('open'));
    gate.hold();
    gate.whenOpen(() => grants.push('a'));
    gate.whenOpen(() => grants.push('b'));
    expect(grants).toEqual(['open']);
    gate.release();
    expect(grants).toEqual(['open', 'a', 'b']);
    expect(gate.isOpen()).toBe(true);
  });

  it('says since when the brokers hold, while they do', () => {
    const gate = new CreditGate({ holdLimitMs: 60_000, now: () => 1234 });
    expect(gate.heldSince()).toBeUndefined();
    gate.hold();
    expect(gate.heldSince()).toBe(1234);
    gate.release();
    expect(gate.heldSince()).toBeUndefined();
  });

  it('forgets the grant of a subscription that ended', () => {
    const gate = new CreditGate({ holdLimitMs: 60_000 });
    const grant = jest.fn();
    gate.hold();
    gate.whenOpen(grant);
    gate.forget(grant);
    gate.release();
    expect(grant).not.toHaveBeenCalled();
  });

  it('opens at the limit and holds no more until the buffer has drained', () => {
    const released: [number, boolean][] = [];
    let now = 0;
    const gate = new CreditGate({
      holdLimitMs: 60_000,
      now: () => now,
      onRelease: (ms, over) => released.push([ms, over]),
    });
    const grant = jest.fn();
    gate.hold();
    gate.whenOpen(grant);
    now = 60_000;
    jest.advanceTimersByTime(60_000);
    expect(grant).toHaveBeenCalledTimes(1);
    expect(released).toEqual([[60_000, true]]);
    // Still full: a new hold now would make the limit bound nothing.
    gate.hold();
    expect(gate.isOpen()).toBe(true);
    gate.release();
    gate.hold();
    expect(gate.isOpen()).toBe(false);
  });
});
