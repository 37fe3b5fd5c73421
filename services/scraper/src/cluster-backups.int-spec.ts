import { artemis, waitFor } from '@artemis-studio/testing';
import { ClusterStack } from './cluster-stack.fixture';

/** A node as tier A last stored it: [name, role, reachable, in sync, broker node id]. */
type NodeRow = {
  name: string;
  role: string;
  reachable: boolean;
  replica_sync: boolean | null;
  broker_node_id: string | null;
};

/** A live node's cluster connection as stored, its topology's members. */
interface ConnectionRow {
  name: string;
  broker_node_id: string;
  members: { brokerNodeId: string; live: string | null; backup: string | null }[];
}

/**
 * The `cluster-ha` profile: node1 and node2 in one symmetric cluster, each with a replica backup
 * ("node1-backup", "node2-backup") paired by group name; the four registered as one cluster. Each
 * node's cluster acceptor is its client port + 1000 (scripts/artemis.sh): node1 63216, its backup
 * 63217, node2 63218, its backup 63219.
 */
describe('a symmetric cluster of two live nodes, each with a replica backup', () => {
  const stack = new ClusterStack('cluster-ha');

  const nodes = async (): Promise<NodeRow[]> =>
    stack.db.query(
      `SELECT n.name, s.role, s.reachable, s.replica_sync, s.broker_node_id
         FROM cluster_node n JOIN node_state s ON s.node_id = n.id
        WHERE n.cluster_id = $1 ORDER BY n.position`,
      [stack.clusterId],
    );
  const connections = async (): Promise<ConnectionRow[]> =>
    stack.db.query(
      `SELECT n.name, c.broker_node_id, c.members FROM cluster_connection c
         JOIN cluster_node n ON n.id = c.node_id WHERE c.cluster_id = $1 ORDER BY n.position`,
      [stack.clusterId],
    );
  const membersOf = (row: ConnectionRow) =>
    row.members.map((m) => [m.live, m.backup]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

  beforeAll(() => stack.start(), 300_000);
  afterAll(() => stack.stop(), 120_000);

  it('polls node1 and node2 as live and each replica as a backup in sync, sharing its live node’s id', async () => {
    const rows = await waitFor(
      'two live nodes and two synchronised backups',
      async () => {
        const rows = await nodes();
        const roles = rows.map((r) => [r.name, r.role, r.reachable]);
        return JSON.stringify(roles) ===
          JSON.stringify([
            ['node1', 'live', true],
            ['node1-backup', 'backup', true],
            ['node2', 'live', true],
            ['node2-backup', 'backup', true],
          ]) && rows.every((r) => r.role === 'live' || r.replica_sync === true)
          ? rows
          : false;
      },
      { timeoutMs: 60_000 },
    );
    const id = (name: string) => rows.find((r) => r.name === name)?.broker_node_id;
    expect(id('node1')).toBeTruthy();
    expect(id('node1-backup')).toBe(id('node1'));
    expect(id('node2-backup')).toBe(id('node2'));
    expect(id('node2')).not.toBe(id('node1'));
  });

  it('stores the topology both live nodes report: two members, each with its backup’s connector', async () => {
    // A replica announces itself to the cluster once it is in sync: the members' backups follow.
    const rows = await waitFor(
      'both live nodes’ cluster connections with a backup for each member',
      async () => {
        const rows = await connections();
        return rows.length === 2 && rows.every((r) => r.members.every((m) => m.backup !== null)) && rows;
      },
      { timeoutMs: 60_000 },
    );
    expect(rows.map((r) => r.name)).toEqual(['node1', 'node2']);
    for (const row of rows)
      expect(membersOf(row)).toEqual([
        ['127.0.0.1:63216', '127.0.0.1:63217'],
        ['127.0.0.1:63218', '127.0.0.1:63219'],
      ]);
  });

  it('follows node2’s failover: its backup polled as live, and node1’s topology names it the member’s live node', async () => {
    await artemis('kill', 'cluster-ha', 'node2');
    await waitFor(
      'node2 unreachable and node2-backup live',
      async () => {
        const rows = await nodes();
        const of = (name: string) => rows.find((r) => r.name === name);
        return of('node2')?.reachable === false && of('node2-backup')?.role === 'live';
      },
      { timeoutMs: 60_000 },
    );
    // The member keeps its node id; its live connector is now the backup's, and it has no backup.
    await waitFor(
      'node1’s topology with node2-backup as the member’s live node',
      async () => {
        const [node1] = await connections();
        return (
          JSON.stringify(membersOf(node1)) ===
          JSON.stringify([
            ['127.0.0.1:63216', '127.0.0.1:63217'],
            ['127.0.0.1:63219', null],
          ])
        );
      },
      { timeoutMs: 60_000 },
    );
  });
});
