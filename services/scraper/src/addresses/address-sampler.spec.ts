import type { AddressObservation, AddressReading } from './address-observation';
import { AddressSampler } from './address-sampler';

const HEARTBEAT_MS = 600_000;
const T0 = Date.parse('2026-12-01T00:00:00Z');
const at = (tick: number) => new Date(T0 + tick * 15_000);
const address = (
  name: string,
  sizeBytes: number,
  limitFraction: number | null = null,
): AddressObservation => ({
  name,
  sizeBytes,
  paging: false,
  pages: 0,
  limitFraction,
});
const read = (...addresses: AddressObservation[]): AddressReading => ({ addresses, unread: [] });

/** Plans a tick and writes it, as the poller does; gives what was written as `name:size` or `name:end`. */
const tick = (sut: AddressSampler, reading: AddressReading | null, when: Date, node = 'a') => {
  const plan = sut.plan(node, reading, when);
  plan.written();
  return plan.rows.map((r) => `${r.name}:${r.ended ? 'end' : r.sizeBytes}`);
};

describe('AddressSampler', () => {
  it('samples an address when it is new or changed, and leaves an unchanged one alone', () => {
    const sut = new AddressSampler([], HEARTBEAT_MS);
    expect(tick(sut, read(address('orders', 0), address('audit', 5)), at(0))).toEqual([
      'orders:0',
      'audit:5',
    ]);
    expect(tick(sut, read(address('orders', 0), address('audit', 5)), at(1))).toEqual([]);
    expect(tick(sut, read(address('orders', 100), address('audit', 5)), at(2))).toEqual(['orders:100']);
    expect(tick(sut, read(address('orders', 100), { ...address('audit', 5), paging: true }), at(3))).toEqual([
      'audit:5',
    ]);
  });

  it('samples an unchanged address again once its heartbeat is due, counted from its last sample', () => {
    const sut = new AddressSampler([], HEARTBEAT_MS);
    tick(sut, read(address('orders', 7)), at(0));
    const beats: number[] = [];
    for (let i = 1; i <= 90; i++) if (tick(sut, read(address('orders', 7)), at(i)).length > 0) beats.push(i);
    expect(beats).toEqual([40, 80]);
  });

  it('ends an address that is gone or unread with its last figures, and samples it when it is read again', () => {
    const sut = new AddressSampler([], HEARTBEAT_MS);
    tick(sut, read(address('orders', 3), address('audit', 5)), at(0));
    expect(tick(sut, { addresses: [address('orders', 3)], unread: ['audit'] }, at(1))).toEqual(['audit:end']);
    expect(tick(sut, read(address('orders', 3), address('audit', 5)), at(2))).toEqual(['audit:5']);
    const plan = sut.plan('a', read(address('audit', 5)), at(3));
    expect(plan.rows).toEqual([{ ...address('orders', 3), ended: true }]);
  });

  it("ends every open address of a node whose addresses are not known, once, and no other node's", () => {
    const sut = new AddressSampler([], HEARTBEAT_MS);
    tick(sut, read(address('orders', 3), address('audit', 5)), at(0), 'a');
    tick(sut, read(address('orders', 9)), at(0), 'b');
    expect(tick(sut, null, at(1), 'a')).toEqual(['orders:end', 'audit:end']);
    expect(tick(sut, null, at(2), 'a')).toEqual([]);
    expect(tick(sut, read(address('orders', 9)), at(2), 'b')).toEqual([]);
  });

  it('plans the same again when a tick was not written: what it compares with is what is stored', () => {
    const sut = new AddressSampler([], HEARTBEAT_MS);
    tick(sut, read(address('orders', 3)), at(0));
    sut.plan('a', read(address('orders', 4)), at(1));
    expect(tick(sut, null, at(2))).toEqual(['orders:end']);
  });

  it("starts from the history's open samples: an unchanged one holds on, one gone while no one polled ends", () => {
    const sut = new AddressSampler(
      [
        { nodeId: 'a', address: address('orders', 3, 0.42), sampledAt: at(-1) },
        { nodeId: 'a', address: address('gone', 1), sampledAt: at(-1) },
        { nodeId: 'a', address: address('old', 2), sampledAt: new Date(T0 - HEARTBEAT_MS) },
      ],
      HEARTBEAT_MS,
    );
    // 0.42 as a stored percent reads back as 42 / 100: not a change.
    expect(tick(sut, read(address('orders', 3, 42 / 100), address('old', 2)), at(0))).toEqual([
      'old:2',
      'gone:end',
    ]);
  });
});
