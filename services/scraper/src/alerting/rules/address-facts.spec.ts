import type { AddressObservation } from '../../addresses/address-observation';
import { AddressFactBuilder } from './address-facts';

const at = (seconds: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, seconds));
const observed = (over: Partial<AddressObservation> = {}): AddressObservation => ({
  name: 'orders',
  sizeBytes: 0,
  paging: false,
  pages: 0,
  limitFraction: 0,
  ...over,
});
const node = (nodeId: string, ...addresses: AddressObservation[]) => ({
  nodeId,
  queues: [],
  unread: [],
  addresses: { addresses, unread: [] },
});

describe('AddressFactBuilder', () => {
  it('forecasts a steady fill against the limit its whole percent stands for', () => {
    const sut = new AddressFactBuilder();
    // 1,000 bytes/s into a 100,000-byte limit: full at 100 s.
    let forecast: number | null = null;
    for (const s of [40, 45, 50]) {
      const size = s * 1000;
      const fact = sut
        .build(
          [node('a', observed({ sizeBytes: size, limitFraction: Math.floor(size / 1000) / 100 }))],
          at(s),
        )
        .get('orders');
      forecast = fact?.secondsUntilFull ?? null;
    }
    // 50,000 bytes at "50%": the limit is placed at 50,000 × 100 / 50.5, within 1% of the truth.
    expect(forecast).toBeGreaterThan(48);
    expect(forecast).toBeLessThan(50);
  });

  it('knows nothing before three samples, says 0 once paging, and Infinity when draining', () => {
    const sut = new AddressFactBuilder();
    const fact = (s: number, o: Partial<AddressObservation>) =>
      sut.build([node('a', observed(o))], at(s)).get('orders')!.secondsUntilFull;
    expect(fact(0, { sizeBytes: 5000, limitFraction: 0.5 })).toBeNull();
    expect(fact(5, { sizeBytes: 4000, limitFraction: 0.4 })).toBeNull();
    expect(fact(10, { sizeBytes: 3000, limitFraction: 0.3 })).toBe(Infinity);
    expect(fact(15, { sizeBytes: 9900, limitFraction: 0.99, paging: true })).toBe(0);
  });

  it('sums size and pages over the nodes, takes the fullest limit, and the first node to fill', () => {
    const sut = new AddressFactBuilder();
    const build = (s: number, a: number, b: number) =>
      sut
        .build(
          [
            node('a', observed({ sizeBytes: a, limitFraction: a / 100_000, pages: 1 })),
            node('b', observed({ sizeBytes: b, limitFraction: b / 100_000, paging: b >= 100_000, pages: 2 })),
          ],
          at(s),
        )
        .get('orders')!;
    build(0, 10_000, 10_000);
    build(10, 10_000, 20_000);
    const fact = build(20, 10_000, 30_000);
    expect(fact).toMatchObject({ sizeBytes: 40_000, pages: 3, limitFraction: 0.3, paging: false });
    // Node a does not grow; node b grows 1,000 bytes/s with about 70,000 to go.
    expect(fact.secondsUntilFull).toBeGreaterThan(65);
    expect(fact.secondsUntilFull).toBeLessThan(71);
  });

  it('keeps an unread address unknown, and its samples for the next tick', () => {
    const sut = new AddressFactBuilder();
    sut.build([node('a', observed({ sizeBytes: 1000, limitFraction: 0.01 }))], at(0));
    sut.build([node('a', observed({ sizeBytes: 2000, limitFraction: 0.02 }))], at(1));
    const unread = sut.build([{ ...node('a'), addresses: { addresses: [], unread: ['orders'] } }], at(2));
    expect(unread.get('orders')).toMatchObject({ stale: true, secondsUntilFull: null });
    const back = sut.build([node('a', observed({ sizeBytes: 4000, limitFraction: 0.04 }))], at(3));
    expect(back.get('orders')?.secondsUntilFull).not.toBeNull();
  });

  it('forecasts at its first tick from the samples stored before (a takeover, a new rule)', () => {
    const sut = new AddressFactBuilder();
    expect(sut.fresh).toBe(true);
    sut.seed([
      { nodeId: 'a', address: 'orders', atMs: at(40).getTime(), sizeBytes: 40_000 },
      { nodeId: 'a', address: 'orders', atMs: at(45).getTime(), sizeBytes: 45_000 },
      // Another node's samples start that node's own trend, not this one's.
      { nodeId: 'b', address: 'orders', atMs: at(45).getTime(), sizeBytes: 0 },
    ]);
    const fact = sut.build([node('a', observed({ sizeBytes: 50_000, limitFraction: 0.5 }))], at(50));
    expect(sut.fresh).toBe(false);
    expect(fact.get('orders')?.secondsUntilFull).toBeGreaterThan(48);
    expect(fact.get('orders')?.secondsUntilFull).toBeLessThan(50);
  });
});
