import { clusterWeight, preferredOwners, type WeightedCluster } from './preferred-owners';

/** A fleet with sizes spread as a real one's are: many small clusters, a few large ones. */
function fleet(count: number, seed = 7): WeightedCluster[] {
  let state = seed;
  const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
  return Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    weight: clusterWeight(1 + Math.floor(random() * 3), Math.floor(50 * Math.exp(random() * 4))),
  }));
}

function loads(clusters: WeightedCluster[], owners: Map<string, string>): Map<string, number> {
  const load = new Map<string, number>();
  for (const c of clusters) load.set(owners.get(c.id)!, (load.get(owners.get(c.id)!) ?? 0) + c.weight);
  return load;
}

function moved(before: Map<string, string>, after: Map<string, string>): number {
  return [...before].filter(([id, owner]) => after.get(id) !== owner).length;
}

describe('preferredOwners', () => {
  it('splits 100 clusters of 1,000 queues between two replicas within 55/45 by weight', () => {
    const clusters = Array.from({ length: 100 }, (_, i) => ({
      id: `cluster-${i}`,
      weight: clusterWeight(2, 1000),
    }));
    const load = [...loads(clusters, preferredOwners(clusters, ['scraper-a', 'scraper-b'])).values()];
    const total = load.reduce((a, b) => a + b, 0);
    expect(Math.max(...load) / total).toBeLessThanOrEqual(0.55);
  });

  it('balances a fleet of uneven clusters over three replicas, each within 10% of a third', () => {
    const clusters = fleet(200);
    const load = [...loads(clusters, preferredOwners(clusters, ['a', 'b', 'c'])).values()];
    const share = load.reduce((a, b) => a + b, 0) / 3;
    for (const l of load) expect(Math.abs(l - share) / share).toBeLessThanOrEqual(0.1);
  });

  it('gives every replica the same answer, whatever order it lists the members and clusters in', () => {
    const clusters = fleet(50);
    const one = preferredOwners(clusters, ['a', 'b', 'c']);
    const other = preferredOwners([...clusters].reverse(), ['c', 'a', 'b', 'a']);
    expect(other).toEqual(one);
  });

  it('moves about a third of the clusters to a third replica joining, and only those', () => {
    const clusters = fleet(300);
    const before = preferredOwners(clusters, ['a', 'b']);
    const after = preferredOwners(clusters, ['a', 'b', 'c']);
    const movedCount = moved(before, after);
    expect(movedCount / clusters.length).toBeGreaterThan(0.25);
    expect(movedCount / clusters.length).toBeLessThan(0.45);
    // Nothing moves between the two replicas that stay: only to the new one.
    for (const [id, owner] of after) if (owner !== before.get(id)) expect(owner).toBe('c');
  });

  it('moves about a third of the weight to a third replica joining a fleet of a few heavy clusters', () => {
    // 200 fleets of 30 clusters of four sizes (22 to 5,002 queues), as the balanced-ownership
    // integration test has them: a heavy cluster is a tenth of the fleet, and which land where
    // depends on the ids, so some fleets move more than a third to stay balanced.
    let state = 11;
    const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
    const word = () => Math.floor(random() * 2 ** 32).toString(16);
    const movedWeight = Array.from({ length: 200 }, () => {
      const clusters = Array.from({ length: 30 }, (_, i) => ({
        id: `${word()}-${word()}-${i}`,
        weight: clusterWeight(2, [20, 300, 1500, 5000][i % 4]),
      }));
      const before = preferredOwners(clusters, ['a', 'b']);
      const after = preferredOwners(clusters, ['a', 'b', 'c']);
      const total = clusters.reduce((sum, c) => sum + c.weight, 0);
      return (
        clusters.filter((c) => before.get(c.id) !== after.get(c.id)).reduce((sum, c) => sum + c.weight, 0) /
        total
      );
    }).sort((a, b) => a - b);
    expect(movedWeight[100]).toBeLessThan(0.4);
    expect(movedWeight[180]).toBeLessThan(0.55);
  });

  it('moves the clusters of a replica that leaves, and few others', () => {
    const clusters = fleet(300);
    const before = preferredOwners(clusters, ['a', 'b', 'c']);
    const after = preferredOwners(clusters, ['a', 'b']);
    const ofC = [...before.values()].filter((o) => o === 'c').length;
    expect(moved(before, after)).toBeLessThan(ofC * 1.3);
  });

  it('does not move a cluster when a queue is made or deleted, only when its size really changes', () => {
    expect(clusterWeight(2, 1234)).toBe(clusterWeight(2, 1236));
    expect(clusterWeight(2, 47)).toBe(49);
    expect(clusterWeight(1, 5000)).toBeLessThan(clusterWeight(1, 10_000));
    expect(clusterWeight(0, 0)).toBe(1);
  });

  it('has no owner to give without a live member', () => {
    expect(preferredOwners(fleet(3), [])).toEqual(new Map());
  });
});
