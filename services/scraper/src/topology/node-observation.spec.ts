import { healthOf } from '@artemis-studio/contracts';
import {
  observeBroker,
  topologyKey,
  unreachableNode,
  withRoleHistory,
  type NodeObservation,
} from './node-observation';

const node = { nodeId: 'n1', name: 'a' };
const at = new Date('2026-11-29T10:00:00Z');
const brokerAnswer = (attrs: Record<string, unknown>) => [
  { status: 200, value: { 'org.apache.activemq.artemis:broker="a"': attrs } },
];

describe('observeBroker', () => {
  it('reads an active broker as live with its identity', () => {
    const sut = observeBroker(
      node,
      brokerAnswer({
        Active: true,
        Backup: false,
        NodeID: 'x',
        Version: '2.40.0',
        UptimeMillis: 5,
        ConnectionCount: 3,
      }),
      at,
    );
    expect(sut).toMatchObject({
      reachable: true,
      role: 'live',
      brokerNodeId: 'x',
      version: '2.40.0',
      uptimeMs: 5,
      connectionCount: 3,
      reason: null,
    });
  });

  it('reads disk and memory against their limits as the broker gives them, and unknown as unknown', () => {
    // As Artemis 2.40 answered over Jolokia (probed): a fraction, a percent and two sizes in bytes.
    const read = (attrs: Record<string, unknown>) =>
      observeBroker(node, brokerAnswer({ Active: true, ...attrs }), at);
    expect(
      read({
        DiskStoreUsage: 0.6948,
        MaxDiskUsage: 90,
        AddressMemoryUsage: 48971785,
        GlobalMaxSize: 268435456,
      }),
    ).toMatchObject({
      diskUsage: 0.6948,
      diskLimit: 0.9,
      memoryBytes: 48971785,
      memoryLimitBytes: 268435456,
    });
    // No limit (-1), an attribute error, an older broker without the attribute: unknown, never 0.
    expect(
      read({ DiskStoreUsage: 'ERROR: java.lang.IllegalStateException', MaxDiskUsage: -1, GlobalMaxSize: -1 }),
    ).toMatchObject({ diskUsage: null, diskLimit: null, memoryBytes: null, memoryLimitBytes: null });
    // Before the broker's first disk scan after a start, it says 0.0: not measured yet.
    expect(read({ DiskStoreUsage: 0 }).diskUsage).toBeNull();
  });

  it('reads a reachable broker that is not active as a backup', () => {
    expect(observeBroker(node, brokerAnswer({ Active: false, Backup: true }), at).role).toBe('backup');
  });

  it('states why when the read fails or no broker MBean exists', () => {
    expect(observeBroker(node, [{ status: 404, error: 'InstanceNotFound' }], at)).toMatchObject({
      reachable: false,
      reason: expect.stringContaining('InstanceNotFound'),
    });
    expect(observeBroker(node, [{ status: 200, value: {} }], at).reason).toMatch(/no broker MBean/);
  });

  // What Artemis 2.40 answered, per attribute, while a primary shut down after its replication
  // timed out (the fault suite's random round).
  const notStarted =
    'ERROR: java.lang.IllegalStateException: Broker is not started. It can not be managed yet (class javax.management.RuntimeMBeanException)';

  it('never reads an attribute error as live, and says why', () => {
    const sut = observeBroker(node, brokerAnswer({ Active: notStarted, UptimeMillis: notStarted }), at);
    expect(sut).toMatchObject({ reachable: false, role: 'unknown', uptimeMs: null });
    expect(sut.reason).toContain('Broker is not started');
  });

  it('keeps a node whose other attributes failed, with those left unknown', () => {
    const sut = observeBroker(
      node,
      brokerAnswer({
        Active: true,
        Version: notStarted,
        UptimeMillis: notStarted,
        ConnectionCount: notStarted,
      }),
      at,
    );
    expect(sut).toMatchObject({
      reachable: true,
      role: 'live',
      version: null,
      uptimeMs: null,
      connectionCount: null,
    });
  });
});

describe('the health of observed nodes (healthOf)', () => {
  const live = observeBroker(node, brokerAnswer({ Active: true }), at);
  const backup = observeBroker({ nodeId: 'n2', name: 'b' }, brokerAnswer({ Active: false }), at);
  const down = unreachableNode({ nodeId: 'n3', name: 'c' }, 'ECONNREFUSED', at, null);

  it.each<[string, NodeObservation[], string]>([
    ['nothing observed', [], 'UNKNOWN'],
    ['all answer, one live', [live, backup], 'HEALTHY'],
    ['one live, one silent', [live, down], 'DEGRADED'],
    ['no live node', [backup, down], 'DOWN'],
    ['nothing answers', [down], 'DOWN'],
  ])('%s', (_what, observations, health) => {
    expect(healthOf(observations)).toBe(health);
  });

  it('topologyKey changes with roles and reachability, not with uptime', () => {
    const later = observeBroker(node, brokerAnswer({ Active: true, UptimeMillis: 999 }), at);
    expect(topologyKey([live, backup])).toBe(topologyKey([backup, later]));
    expect(topologyKey([live, backup])).not.toBe(topologyKey([live, { ...backup, role: 'live' }]));
    expect(topologyKey([live])).not.toBe(topologyKey([{ ...live, reachable: false, role: 'unknown' }]));
  });
});

describe("a node's role history (withRoleHistory)", () => {
  const later = (seconds: number) => new Date(at.getTime() + seconds * 1000);
  const answered = (active: boolean, seconds: number) =>
    observeBroker(node, brokerAnswer({ Name: 'a', Active: active, NodeID: 'b1' }), later(seconds));

  it('sees no change at first sight', () => {
    expect(withRoleHistory(answered(false, 0), undefined)).toMatchObject({
      lastRole: 'backup',
      roleChangedAt: null,
    });
  });

  it('keeps the last role through a spell of unreachability, and stamps the failover when it answers live', () => {
    const backup = withRoleHistory(answered(false, 0), undefined);
    const away = withRoleHistory(unreachableNode(node, 'ECONNREFUSED', later(5), later(0)), backup);
    expect(away).toMatchObject({ role: 'unknown', lastRole: 'backup', roleChangedAt: null });
    const live = withRoleHistory(answered(true, 10), away);
    expect(live).toMatchObject({ role: 'live', lastRole: 'live', roleChangedAt: later(10) });
    expect(withRoleHistory(answered(true, 15), live).roleChangedAt).toEqual(later(10));
  });
});
