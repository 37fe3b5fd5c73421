import type { NodeFact } from '../../polling/tick-observer';
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
  roleChangedAt: null,
  ...over,
});

describe('NodeHistory', () => {
  it('forecasts the disk reaching its limit from its samples', () => {
    const sut = new NodeHistory();
    sut.observe([node({ diskUsage: 0.5 })], at(0));
    sut.observe([node({ diskUsage: 0.6 })], at(10));
    const [n] = sut.observe([node({ diskUsage: 0.7 })], at(20));
    expect(n.diskFullInSeconds).toBeCloseTo(20);
    expect(sut.observe([node({ diskLimit: null })], at(30))[0].diskFullInSeconds).toBeNull();
  });

  it('forecasts at its first tick from the samples stored before (a takeover)', () => {
    const sut = new NodeHistory();
    expect(sut.fresh).toBe(true);
    sut.seed([
      { node: 'primary', atMs: at(0).getTime(), diskUsage: 0.5 },
      { node: 'primary', atMs: at(10).getTime(), diskUsage: 0.6 },
    ]);
    const [n] = sut.observe([node({ diskUsage: 0.7 })], at(20));
    expect(sut.fresh).toBe(false);
    expect(n.diskFullInSeconds).toBeCloseTo(20);
  });
});
