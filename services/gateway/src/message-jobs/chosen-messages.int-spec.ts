import { MessageJobImpactSchema, QueueMessagesPageSchema, type MessageJob } from '@artemis-studio/contracts';
import { depthOf, drainQueue, errorOf, fillQueue } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { MessageJobsStack } from './message-jobs-stack.fixture';

describe('message jobs on chosen messages, by filter, and refused, on a real broker', () => {
  const stack = new MessageJobsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

  it('copies, moves and deletes chosen messages, and says which it could not reach', async () => {
    const source = stack.unique('chosen');
    const target = stack.unique('chosen-to');
    await fillQueue(stack.broker, source, 5, (i) => ({ body: `chosen ${i}`, durable: true }));
    await stack.createQueue(target);
    const page = QueueMessagesPageSchema.parse(
      await (await stack.operator.fetch(`${stack.base()}/queues/${source}/messages?pageSize=5`)).json(),
    );
    const [a, b, c] = page.messages.map((m) => m.messageId);
    const node = page.node;

    const copied = await stack.ended(
      (
        await stack.started(
          await stack.startJob(stack.operator, source, 'copy', { messageIds: [a, b], node, to: target }),
        )
      ).id,
    );
    expect(copied).toEqual(expect.objectContaining({ status: 'done', processed: 2, chosen: 2 }));
    expect(await depthOf(stack.broker, source)).toBe(5);
    expect(await depthOf(stack.broker, target)).toBe(2);

    // One of the three is gone already (deleted just before): not reached, and said so.
    const deleted = await stack.ended(
      (await stack.started(await stack.startJob(stack.operator, source, 'delete', { messageIds: [c], node })))
        .id,
    );
    expect(deleted.processed).toBe(1);
    const moved = await stack.ended(
      (
        await stack.started(
          await stack.startJob(stack.operator, source, 'move', { messageIds: [a, c], node, to: target }),
        )
      ).id,
    );
    expect(moved).toEqual(expect.objectContaining({ status: 'done', processed: 1 }));
    expect(moved.nodes[0].notReached).toBe(1);
    expect(await depthOf(stack.broker, source)).toBe(3);
    expect(await depthOf(stack.broker, target)).toBe(3);
  }, 120_000);

  it('deletes by filter exactly what matches, in batches through a trash queue that is gone afterwards', async () => {
    const queue = stack.unique('filtered');
    await fillQueue(stack.broker, queue, 300, (i) => ({
      body: `m ${i}`,
      durable: true,
      application_properties: { customer: i % 3 === 0 ? 'alice' : 'bob' },
    }));
    const filter = "customer = 'alice'";
    const impact = MessageJobImpactSchema.parse(
      await (
        await stack.operator.fetch(
          `${stack.base()}/queues/${queue}/messages/impact?kind=delete&filter=${encodeURIComponent(filter)}`,
        )
      ).json(),
    );
    // The broker counts a filter among its first 200 messages only: a lower bound, said to be one.
    expect(impact.messages).toEqual({ count: 67, atLeast: true });
    const job = await stack.ended(
      (await stack.started(await stack.startJob(stack.operator, queue, 'delete', { filter, batchSize: 25 })))
        .id,
    );
    expect(job).toEqual(expect.objectContaining({ status: 'done', processed: 100, cancellable: true }));
    expect(job.nodes[0].batches).toBe(5);
    expect(await depthOf(stack.broker, queue)).toBe(200);
    const left = await drainQueue(stack.broker, queue);
    expect(left.every((body) => Number(body.slice(2)) % 3 !== 0)).toBe(true);
    expect(await depthOf(stack.broker, `studio.trash.${job.id}`)).toBeNull();
  }, 120_000);

  it('refuses what makes no sense, what is nowhere, a viewer and a read-only cluster; a replayed key starts one job', async () => {
    const queue = stack.unique('refused');
    await fillQueue(stack.broker, queue, 4);

    expect(await errorOf(await stack.startJob(stack.viewer, queue, 'delete', {}))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await errorOf(await stack.startJob(stack.operator, queue, 'copy', { to: 'elsewhere' }))).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
    });
    expect(
      await errorOf(await stack.startJob(stack.operator, queue, 'move', { to: `${queue}.nowhere` })),
    ).toEqual({
      status: 404,
      code: 'NOT_ON_BROKER',
    });
    expect(await errorOf(await stack.startJob(stack.operator, `${queue}.nowhere`, 'delete', {}))).toEqual({
      status: 404,
      code: 'NOT_ON_BROKER',
    });
    expect(
      await errorOf(await stack.startJob(stack.operator, queue, 'delete', { filter: 'customer =' })),
    ).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
    });
    expect(await depthOf(stack.broker, queue)).toBe(4);

    const key = randomUUID();
    const first = await stack.started(
      await stack.startJob(stack.operator, queue, 'delete', { filter: 'customer IS NULL' }, key),
    );
    const again = await stack.started(
      await stack.startJob(stack.operator, queue, 'delete', { filter: 'customer IS NULL' }, key),
    );
    expect(again.id).toBe(first.id);
    const jobs = (await (await stack.viewer.fetch(`${stack.base()}/message-jobs?queue=${queue}`)).json()) as {
      jobs: MessageJob[];
    };
    expect(jobs.jobs.map((j) => j.id)).toEqual([first.id]);
    expect((await stack.ended(first.id)).processed).toBe(4);

    const readOnly = (value: boolean) =>
      stack.admin.fetch(stack.base(), {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ readOnly: value }),
      });
    expect((await readOnly(true)).status).toBe(200);
    try {
      expect(await errorOf(await stack.startJob(stack.operator, queue, 'delete', {}))).toEqual({
        status: 403,
        code: 'CLUSTER_READ_ONLY',
      });
    } finally {
      await readOnly(false);
    }
  }, 120_000);
});
