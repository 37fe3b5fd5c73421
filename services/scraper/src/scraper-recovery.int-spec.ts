import { buckets, rpcs } from '@artemis-studio/contracts';
import { ClusterEntity, NodeStateEntity } from '@artemis-studio/db';
import {
  artemis,
  brokerCluster,
  insertCluster,
  testConfig,
  waitFor,
  openAmqpClient,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';

import { ScraperStack } from './scraper-stack.fixture';

describe('one scraper when credentials, clusters and brokers change, against a real broker', () => {
  const stack = new ScraperStack();

  beforeAll(async () => {
    await stack.start();
    await stack.startReplica();
  });
  afterAll(() => stack.stop());

  it('states wrong credentials on the node', async () => {
    const wrong = await insertCluster(stack.db, {
      ...brokerCluster(stack.broker),
      // Not the broker's user, and new each run: the console blocks a user name after a few
      // failed logins, so this node's polls would lock the broker's user out of every other
      // test, and a name used in an earlier run could already be blocked.
      jolokia: { username: `wrong-${Date.now()}`, password: 'wrong' },
    });
    const state = await waitFor('the refused node state', () =>
      stack.db
        .getRepository(NodeStateEntity)
        .findOneBy({ nodeId: wrong.nodeIds[0] })
        .then((s) => s ?? undefined),
    );
    expect(state).toMatchObject({
      reachable: false,
      role: 'unknown',
      // Retried rarely: each failed login lengthens the broker's block of the user name.
      reason: expect.stringMatching(/^Jolokia refused the login \(HTTP 403\).*tried again in 5 min/),
    });
    // And counted, for whoever watches the metrics rather than the console.
    const metrics = await (await fetch(`${stack.scraper!.url}/metrics`)).text();
    expect(metrics).toMatch(
      new RegExp(
        `studio_scraper_poll_failures_total\\{[^}]*node="${stack.broker.nodes[0].name}"[^}]*kind="unauthorized"[^}]*\\} 1`,
      ),
    );
    await stack.db.getRepository(ClusterEntity).delete({ id: wrong.id });
  });

  it('forgets a deleted cluster without a restart: no more polling, no live-node set', async () => {
    const doomed = await insertCluster(stack.db, brokerCluster(stack.broker));
    const liveNodes = await stack.bus.kv(buckets.liveNodes);
    await waitFor('the new cluster to be polled', async () => (await liveNodes.get(doomed.id)) !== null);
    await stack.db.getRepository(ClusterEntity).delete({ id: doomed.id });
    await waitFor('its live-node set to go', async () => (await liveNodes.get(doomed.id)) === null);
    const leases = await stack.bus.kv(buckets.leases);
    expect(await leases.get(`scraper.${doomed.id}`)).toBeNull();
  });

  it('lists the live consumers of a queue with their details', async () => {
    const queue = `scraper.consumers.${randomUUID()}`;
    const client = await openAmqpClient(
      stack.broker.nodes[0].amqpUrl,
      stack.broker.user,
      stack.broker.password,
    );
    try {
      await client.createReceiver({ source: { address: queue, capabilities: ['queue'] } });
      const page = await stack.bus.request(
        rpcs.liveList,
        { clusterId: stack.cluster.id, kind: 'consumers', page: 1, pageSize: 100 },
        { key: stack.cluster.id },
      );
      expect(page.partial).toBe(false);
      // The paged list operation names the queue `queue` (listAllConsumersAsJSON says `queueName`).
      const consumer = page.items.find((c) => c.queue === queue);
      expect(consumer).toMatchObject({
        node: stack.broker.nodes[0].name,
        protocol: 'AMQP',
        address: queue,
        user: stack.broker.user,
        remoteAddress: expect.stringContaining('127.0.0.1'),
      });
    } finally {
      await client.close();
    }
  });

  it('a stopped broker yields a health signal and a node reason, and recovery needs no restart', async () => {
    const healthBefore = stack.signalsOf(stack.cluster.id, 'health').length;
    await artemis('stop', testConfig.brokerProfile);
    try {
      await waitFor(
        'a health signal',
        () => stack.signalsOf(stack.cluster.id, 'health').length > healthBefore,
        {
          timeoutMs: 10_000,
        },
      );
      const down = await stack.db
        .getRepository(NodeStateEntity)
        .findOneByOrFail({ nodeId: stack.cluster.nodeIds[0] });
      expect(down).toMatchObject({ reachable: false, role: 'unknown' });
      expect(down.reason).toMatch(/unreachable|ECONNREFUSED/);
    } finally {
      await artemis('start', testConfig.brokerProfile);
    }
    await waitFor(
      'the node to be observed live again',
      async () =>
        (await stack.db.getRepository(NodeStateEntity).findOneByOrFail({ nodeId: stack.cluster.nodeIds[0] }))
          .reachable,
      // A node silent for a while is retried on a growing interval, capped at 60 s (MAX_BACKOFF_MS).
      { timeoutMs: 75_000, intervalMs: 200 },
    );
    // The scraper writes the state, then signals: the signal reaches this subscriber a moment
    // after the row is visible (reading the count at once failed a CI run).
    await waitFor(
      'the recovery health signal',
      () => stack.signalsOf(stack.cluster.id, 'health').length >= healthBefore + 2,
      {
        timeoutMs: 10_000,
      },
    );
    await new Promise((r) => setTimeout(r, 500));
    expect(stack.signalsOf(stack.cluster.id, 'health').length).toBe(healthBefore + 2);
  }, 150_000);
});
