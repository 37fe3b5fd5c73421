import type { JolokiaResponse } from '../jolokia/jolokia-client';
import { ClusterPoller } from './cluster-poller';
import { backupBroker, liveBroker, noMBean, ownedCluster, pollerDeps, refused } from './poller.fixture';

describe('ClusterPoller, tier B: the address history (ADR-0022)', () => {
  const noQueues = { status: 404 } as unknown as JolokiaResponse;
  const addresses = (sizeBytes: number) =>
    ({
      status: 200,
      value: {
        'org.apache.activemq.artemis:broker="primary",component=addresses,address="orders"': {
          Address: 'orders',
          AddressSize: sizeBytes,
          Paging: false,
          NumberOfPages: 0,
          AddressLimitPercent: 0,
        },
      },
    }) as unknown as JolokiaResponse;

  it("starts from the history's open samples, writes what changed, and ends a node's addresses once it is no longer live", async () => {
    const answers: JolokiaResponse[][] = [
      liveBroker,
      [noQueues, addresses(10), noQueues, noQueues, noQueues],
      [noQueues, addresses(10), noQueues, noQueues, noQueues],
      [noQueues, addresses(20), noQueues, noQueues, noQueues],
      backupBroker,
    ];
    const written: string[][] = [];
    let seeded = 0;
    let clock = Date.parse('2026-11-30T12:00:00Z');
    const poller = new ClusterPoller(
      ownedCluster(),
      pollerDeps({
        jolokia: { bulk: async () => answers.shift()! },
        addresses: {
          openSamples: async () => {
            seeded++;
            return [
              {
                nodeId: 'n1',
                sampledAt: new Date(clock - 15_000),
                address: { name: 'gone', sizeBytes: 1, pages: 0, paging: false, limitFraction: null },
              },
            ];
          },
          record: async (_cluster, _node, rows) => {
            written.push(rows.map((r) => `${r.name}:${r.ended ? 'end' : r.sizeBytes}`));
          },
        },
        now: () => new Date(clock),
      }),
    );
    await poller.tierA();
    for (let i = 0; i < 3; i++) {
      await poller.tierB();
      clock += 5000;
    }
    await poller.tierA();
    await poller.tierB();
    expect(seeded).toBe(1);
    expect(written).toEqual([['orders:10', 'gone:end'], [], ['orders:20'], ['orders:end']]);
  });
});

describe('ClusterPoller, tier B: the queue figures sent to PostgreSQL (ADR-0024)', () => {
  const noAddresses = { status: 404 } as unknown as JolokiaResponse;
  /** The node's queues read at a tick: name and depth. */
  const queues = (depths: Record<string, number>) =>
    ({
      status: 200,
      value: Object.fromEntries(
        Object.entries(depths).map(([name, depth]) => [
          `org.apache.activemq.artemis:address="${name}",broker="primary",component=addresses,queue="${name}",routing-type="anycast",subcomponent=queues`,
          { Name: name, Address: name, RoutingType: 'ANYCAST', MessageCount: depth, MessagesAdded: depth },
        ]),
      ),
    }) as unknown as JolokiaResponse;

  it('sends every queue at first, then only the changed ones in full, and all again when a statement failed, a snapshot was missing or the node was not live', async () => {
    const answers: JolokiaResponse[][] = [liveBroker];
    const sent: string[] = [];
    const warnings: string[] = [];
    let failNext = false;
    let missingNext = 0;
    const poller = new ClusterPoller(
      ownedCluster(),
      pollerDeps({
        jolokia: { bulk: async () => answers.shift()! },
        queues: {
          sync: async (_cluster, _node, changed, _at, _unread, stored = []) => {
            sent.push(`${changed.map((q) => `${q.name}=${q.messageCount}`).join(' ')} | ${stored.join(' ')}`);
            if (failNext) {
              failNext = false;
              throw new Error('connection lost');
            }
            const storedMissing = missingNext;
            missingNext = 0;
            return { changed: changed.length, removed: 0, sampled: 0, storedMissing };
          },
          clearNode: async () => 0,
        },
        log: { warn: (message) => void warnings.push(message) },
      }),
    );
    const tick = async (depths: Record<string, number>) => {
      answers.push([queues(depths), noAddresses, noAddresses, noAddresses, noAddresses]);
      await poller.tierB();
    };
    await poller.tierA();
    await tick({ a: 0, b: 0, c: 0 });
    await tick({ a: 0, b: 1, c: 0 });
    failNext = true;
    await tick({ a: 2, b: 1, c: 0 });
    // The failed statement wrote nothing: a is sent in full again.
    await tick({ a: 2, b: 1, c: 0 });
    missingNext = 1;
    await tick({ a: 2, b: 1, c: 0 });
    await tick({ a: 2, b: 1, c: 0 });
    // A backup for a while (its snapshots cleared), then live again.
    answers.push(backupBroker);
    await poller.tierA();
    await poller.tierB();
    answers.push(liveBroker);
    await poller.tierA();
    await tick({ a: 2, b: 1, c: 0 });
    expect(sent).toEqual([
      'a=0 b=0 c=0 | ',
      'b=1 | a c',
      'a=2 | b c',
      'a=2 | b c',
      ' | a b c',
      'a=2 b=1 c=0 | ',
      'a=2 b=1 c=0 | ',
    ]);
    expect(warnings).toEqual([
      expect.stringContaining('queue poll failed: connection lost'),
      'cluster prod, node primary: 1 queue(s) had no snapshot to take their figures from, and are left out until the next tick',
    ]);
  });
});

describe('ClusterPoller, tier B: what the observers are told', () => {
  it('tells them the node that could not be read, not a partial sum, and every node once all are read', async () => {
    const told: unknown[] = [];
    const answers: (() => JolokiaResponse[])[] = [
      () => liveBroker,
      refused,
      () => [{ status: 200, value: {} } as unknown as JolokiaResponse, noMBean, noMBean, noMBean, noMBean],
    ];
    const poller = new ClusterPoller(
      ownedCluster(),
      pollerDeps({
        jolokia: { bulk: async () => answers.shift()!() },
        observers: [
          { afterNodes: () => undefined, afterQueues: (_cluster, _now, read) => void told.push(read) },
        ],
      }),
    );
    await poller.tierA();
    await poller.tierB();
    await poller.tierB();
    expect(told).toEqual([
      { node: 'primary', reason: 'http://127.0.0.1:1 unreachable: ECONNREFUSED' },
      [expect.objectContaining({ nodeId: 'n1', queues: [] })],
    ]);
  });
});
