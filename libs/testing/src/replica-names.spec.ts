import { preferredOwners } from '@artemis-studio/platform';
import { randomUUID } from 'node:crypto';
import { outranking, replicaPair } from './replica-names';

const first = (clusterId: string, a: string, b: string) =>
  preferredOwners([{ id: clusterId, weight: 1 }], [a, b]).get(clusterId);

describe('replica names for ownership tests', () => {
  it('names a pair whose preferred one ranks first, for any cluster', () => {
    for (let i = 0; i < 500; i++) {
      const clusterId = randomUUID();
      const { preferred, other } = replicaPair(clusterId, `t-${i}`);
      expect(first(clusterId, other, preferred)).toBe(preferred);
    }
  });

  it('finds a name that outranks a replica ranking near the top, where 50 tries found none', () => {
    // The rebalance test's failed run: no name among the first 50 outranks this one.
    const clusterId = '2e403a25-7c08-45b8-926f-b3d663ea15e4';
    const current = 'rebalance-0551142d';
    const name = outranking(clusterId, current, `${current}-joining`);
    expect(first(clusterId, current, name)).toBe(name);
    expect(Number(name.split('-').at(-1))).toBeGreaterThanOrEqual(50);
  });
});
