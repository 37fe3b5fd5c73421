import { type AuditEvent } from '@artemis-studio/contracts';
import { createDataSource } from '@artemis-studio/db';
import { errorOf, deadLetter, openAmqpClient, testDatabaseUrl, waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { BrokerActionsStack } from './broker-actions-stack.fixture';

/**
 * Queue actions against the real test broker, through the whole path: gateway → the cluster's
 * owner (a scraper) → Jolokia. What the API says is checked against what the broker says after.
 */

describe('queue actions on a real broker', () => {
  const stack = new BrokerActionsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

  it('counts a purge first, purges exactly that, and a replayed key purges nothing more', async () => {
    const queue = `actions.purge.${randomUUID().slice(0, 8)}`;
    await stack.fill(queue, 25);
    const impact = await stack.result(
      await stack.operator.fetch(`${stack.base()}/queues/${queue}/impact?action=purge`),
    );
    expect(impact).toEqual(expect.objectContaining({ dryRun: true, messages: 25 }));
    expect((await stack.onBroker(queue))?.MessageCount).toBe(25);

    const key = randomUUID();
    const purged = await stack.result(await stack.act(stack.operator, 'POST', `${queue}/purge`, key));
    expect(purged.messages).toBe(25);
    expect(purged.nodes).toEqual([
      expect.objectContaining({
        node: stack.broker.nodes[0].name,
        outcome: 'done',
        depthBefore: 25,
        depthAfter: 0,
      }),
    ]);
    expect((await stack.onBroker(queue))?.MessageCount).toBe(0);

    // A retried click: the same answer, and the messages sent since stay.
    await stack.fill(queue, 3);
    expect(await stack.result(await stack.act(stack.operator, 'POST', `${queue}/purge`, key))).toEqual(
      purged,
    );
    expect((await stack.onBroker(queue))?.MessageCount).toBe(3);
    // The same key for another action is refused, not taken for the purge.
    expect(await errorOf(await stack.act(stack.operator, 'POST', `${queue}/resume`, key))).toEqual({
      status: 400,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });

    // Newest first: the retried click, audited as one that did nothing, then the purge itself.
    const [retried, row] = await stack.audited('queue.purge', queue);
    expect(retried.detail).toEqual(expect.objectContaining({ replayed: true }));
    expect(row.detail).not.toHaveProperty('replayed');
    expect(row).toEqual(
      expect.objectContaining({
        outcome: 'success',
        actor: expect.objectContaining({ name: expect.stringMatching(/^operator-/) }),
        detail: expect.objectContaining({
          messages: 25,
          nodes: [expect.objectContaining({ outcome: 'done', depthBefore: 25, depthAfter: 0 })],
        }),
      }),
    );
  });

  it('answers a key whose request was claimed and never answered (its gateway died) as unknown, and does not act', async () => {
    const queue = `actions.abandoned.${randomUUID().slice(0, 8)}`;
    await stack.fill(queue, 2);
    const key = randomUUID();
    const db = await createDataSource({ url: testDatabaseUrl(), poolSize: 1 }).initialize();
    try {
      await db.query(
        `INSERT INTO action_request (cluster_id, idempotency_key, request, created_at)
         VALUES ($1, $2, $3, now() - interval '10 minutes')`,
        [stack.clusterId, key, JSON.stringify({ action: 'purge', queue })],
      );
    } finally {
      await db.destroy();
    }
    expect(await errorOf(await stack.act(stack.operator, 'POST', `${queue}/purge`, key))).toEqual({
      status: 409,
      code: 'ACTION_OUTCOME_UNKNOWN',
    });
    expect((await stack.onBroker(queue))?.MessageCount).toBe(2);
  });

  it("sends a dead-letter queue's messages back where they came from, counting them first", async () => {
    const work = `actions.work.${randomUUID().slice(0, 8)}`;
    // Three messages a consumer rejects: dead-lettered at once (one delivery attempt).
    const dlq = await deadLetter(stack.broker, work, 3);
    await waitFor('three in the DLQ', async () => (await stack.onBroker(dlq))?.MessageCount === 3);

    const impact = await stack.result(
      await stack.operator.fetch(`${stack.base()}/queues/${dlq}/impact?action=retry`),
    );
    expect(impact.messages).toBe(3);
    const retried = await stack.result(await stack.act(stack.operator, 'POST', `${dlq}/retry`, randomUUID()));
    expect(retried.nodes[0]).toEqual(
      expect.objectContaining({ outcome: 'done', messages: 3, depthBefore: 3, depthAfter: 0 }),
    );
    expect((await stack.onBroker(work))?.MessageCount).toBe(3);
  });

  it('pauses (persisted) and resumes, as the broker then says', async () => {
    const queue = `actions.pause.${randomUUID().slice(0, 8)}`;
    await stack.fill(queue, 1);
    const paused = await stack.result(
      await stack.act(stack.operator, 'POST', `${queue}/pause`, randomUUID(), { persist: true }),
    );
    expect(paused.nodes[0]).toEqual(expect.objectContaining({ outcome: 'done', paused: true }));
    expect((await stack.onBroker(queue))?.Paused).toBe(true);
    const resumed = await stack.result(
      await stack.act(stack.operator, 'POST', `${queue}/resume`, randomUUID()),
    );
    expect(resumed.nodes[0]).toEqual(expect.objectContaining({ outcome: 'done', paused: false }));
    expect((await stack.onBroker(queue))?.Paused).toBe(false);
  });

  it("refuses to delete a queue with a consumer in the broker's words, deletes it without, and the feed says so", async () => {
    const queue = `actions.delete.${randomUUID().slice(0, 8)}`;
    await stack.fill(queue, 2);
    const client = await openAmqpClient(
      stack.broker.nodes[0].amqpUrl,
      stack.broker.user,
      stack.broker.password,
    );
    const receiver = await client.createReceiver({
      source: { address: queue, capabilities: ['queue'] },
      credit_window: 0,
    });
    const refused = await stack.act(stack.operator, 'DELETE', queue, randomUUID());
    expect(await errorOf(refused)).toEqual({ status: 409, code: 'BROKER_REFUSED' });
    expect(await stack.onBroker(queue)).not.toBeNull();
    await receiver.close();
    await client.close();

    const impact = await stack.result(
      await stack.operator.fetch(`${stack.base()}/queues/${queue}/impact?action=delete`),
    );
    expect(impact.messages).toBe(2);
    await waitFor('the consumer to be gone from the broker', async () => {
      const response = await stack.act(stack.operator, 'DELETE', queue, randomUUID());
      if (response.status === 409) return false;
      expect((await stack.result(response)).nodes[0]).toEqual(
        expect.objectContaining({ outcome: 'done', messages: 2 }),
      );
      return true;
    });
    expect(await stack.onBroker(queue)).toBeNull();
    // The broker's own notification of it reaches the events feed.
    await waitFor(
      'QUEUE_DESTROYED in the history',
      async () => {
        const page = (await (
          await stack.admin.fetch(`${stack.base()}/events?queue=${queue}&type=BINDING_REMOVED`)
        ).json()) as {
          items: unknown[];
        };
        return page.items.length > 0;
      },
      { timeoutMs: 30_000 },
    );
    expect(await errorOf(await stack.act(stack.operator, 'DELETE', queue, randomUUID()))).toEqual({
      status: 404,
      code: 'NOT_ON_BROKER',
    });
  });

  it('refuses a viewer and a read-only cluster, audits each refusal, and needs an idempotency key', async () => {
    const queue = `actions.refused.${randomUUID().slice(0, 8)}`;
    await stack.fill(queue, 4);
    /** The audit row of one answered request, found by its X-Request-Id. */
    const outcomeOf = async (response: Response) => {
      const requestId = response.headers.get('x-request-id');
      const rows = (await stack.audited('queue.purge', queue)).concat(
        (
          (await (
            await stack.admin.fetch(`${stack.gateway.url}/api/v1/audit?action=queue.purge`)
          ).json()) as {
            items: AuditEvent[];
          }
        ).items,
      );
      return rows.find((e) => e.requestId === requestId)?.outcome;
    };

    const byViewer = await stack.act(stack.viewer, 'POST', `${queue}/purge`, randomUUID());
    expect(await outcomeOf(byViewer)).toBe('denied');
    expect(await errorOf(byViewer)).toEqual({ status: 403, code: 'FORBIDDEN' });

    const withoutKey = await stack.act(stack.operator, 'POST', `${queue}/purge`);
    expect(await errorOf(withoutKey)).toEqual({ status: 400, code: 'IDEMPOTENCY_KEY_REQUIRED' });
    expect(await outcomeOf(withoutKey)).toBe('failure');

    const readOnly = (value: boolean) => stack.settings({ readOnly: value });
    expect((await readOnly(true)).status).toBe(200);
    try {
      const refused = await stack.act(stack.operator, 'POST', `${queue}/purge`, randomUUID());
      expect(await errorOf(refused)).toEqual({ status: 403, code: 'CLUSTER_READ_ONLY' });
      expect(await outcomeOf(refused)).toBe('denied');
    } finally {
      await readOnly(false);
    }
    expect((await stack.onBroker(queue))?.MessageCount).toBe(4);
  });
});
