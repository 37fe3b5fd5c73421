import type { NodeFact } from './conditions';
import { NodeHistory } from './node-history';

const at = (seconds: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, seconds));
const node = (over: Partial<NodeFact> = {}): NodeFact => ({
  name: 'primary',
  reachable: true,
  role: 'live',
  replicaSync: null,
  diskUsage: 0.5,
  diskLimit: 0.9,
  memoryBytes: 0,
  memoryLimitBytes: 1000,
  ...over,
});

describe('NodeHistory', () => {
  it('sees a failover through a spell of unreachability, and nothing at first sight', () => {
    const sut = new NodeHistory();
    expect(sut.observe([node({ role: 'backup' })], at(0))[0].roleChangedAt).toBeNull();
    sut.observe([node({ role: 'unknown', reachable: false })], at(5));
    expect(sut.observe([node({ role: 'live' })], at(10))[0].roleChangedAt).toEqual(at(10));
    expect(sut.observe([node({ role: 'live' })], at(15))[0].roleChangedAt).toEqual(at(10));
  });

  it('forecasts the disk reaching its limit from its samples', () => {
    const sut = new NodeHistory();
    sut.observe([node({ diskUsage: 0.5 })], at(0));
    sut.observe([node({ diskUsage: 0.6 })], at(10));
    const [n] = sut.observe([node({ diskUsage: 0.7 })], at(20));
    expect(n.diskFullInSeconds).toBeCloseTo(20);
    expect(sut.observe([node({ diskLimit: null })], at(30))[0].diskFullInSeconds).toBeNull();
  });
});
