import {
  DeadLetterGroupsSchema,
  MessageJobImpactSchema,
  QueueMessagesPageSchema,
} from '@artemis-studio/contracts';
import {
  brokerExec,
  deadLetter,
  depthOf,
  drainQueue,
  errorOf,
  fillQueue,
  openAmqpClient,
  waitFor,
  type BrokerProfile,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { MessageJobsStack } from './message-jobs-stack.fixture';

describe('message jobs on a real broker', () => {
  const stack = new MessageJobsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

  it('moves 10,000 messages, most of them paged, in batches: none lost, none doubled', async () => {
    const source = stack.unique('move-from');
    const target = stack.unique('move-to');
    await stack.pagingQueue(source);
    await fillQueue(stack.broker, source, 10_000);
    await stack.createQueue(target);

    const job = await stack.started(
      await stack.startJob(stack.operator, source, 'move', { to: target, batchSize: 1000 }),
    );
    expect(job).toEqual(
      expect.objectContaining({
        status: 'running',
        kind: 'move',
        target,
        planned: { count: 10_000, atLeast: false },
        cancellable: true,
      }),
    );
    const done = await stack.ended(job.id);
    expect(done).toEqual(expect.objectContaining({ status: 'done', processed: 10_000, error: null }));
    expect(done.nodes[0].batches).toBeGreaterThanOrEqual(10);
    expect(await depthOf(stack.broker, source)).toBe(0);
    expect(await depthOf(stack.broker, target)).toBe(10_000);
    // The audit row, written as the job started, is read with what the job went on to do.
    const audit = (await (
      await stack.admin.fetch(
        `${stack.gateway.url}/api/v1/audit?action=queue.messages.move&clusterId=${stack.clusterId}`,
      )
    ).json()) as { items: { target: string; detail: Record<string, unknown> }[] };
    expect(audit.items.find((e) => e.target === source)?.detail).toEqual(
      expect.objectContaining({
        jobId: job.id,
        to: target,
        job: expect.objectContaining({
          status: 'done',
          nodes: [expect.objectContaining({ processed: 10_000 })],
        }),
      }),
    );
    const bodies = await drainQueue(stack.broker, target);
    expect(bodies).toHaveLength(10_000);
    expect(new Set(bodies).size).toBe(10_000);
  }, 240_000);

  it('stops a move half-way when cancelled, reports exactly what moved, and other queues stay browsable meanwhile', async () => {
    const source = stack.unique('cancel-from');
    const target = stack.unique('cancel-to');
    const other = stack.unique('browsed');
    await stack.pagingQueue(source);
    await fillQueue(stack.broker, source, 10_000);
    await stack.createQueue(target);
    await fillQueue(stack.broker, other, 3);

    // Small batches: a long job of a hundred calls, each giving the broker's lock back.
    const job = await stack.started(
      await stack.startJob(stack.operator, source, 'move', { to: target, batchSize: 100 }),
    );
    await waitFor('a thousand to have moved', async () => (await stack.jobNow(job.id)).processed >= 1000, {
      timeoutMs: 60_000,
    });
    const browse = await stack.operator.fetch(`${stack.base()}/queues/${other}/messages`);
    expect(browse.status).toBe(200);
    expect(QueueMessagesPageSchema.parse(await browse.json()).messages).toHaveLength(3);

    const cancel = await stack.operator.fetch(`${stack.base()}/message-jobs/${job.id}/cancel`, {
      method: 'POST',
    });
    expect(cancel.status).toBe(200);
    const stopped = await stack.ended(job.id);
    expect(stopped.status).toBe('cancelled');
    expect(stopped.processed).toBeLessThan(10_000);
    expect(await depthOf(stack.broker, target)).toBe(stopped.processed);
    expect(await depthOf(stack.broker, source)).toBe(10_000 - stopped.processed);
    // Ended: a second cancel is told so.
    expect(
      await errorOf(
        await stack.operator.fetch(`${stack.base()}/message-jobs/${job.id}/cancel`, { method: 'POST' }),
      ),
    ).toEqual({ status: 409, code: 'MESSAGE_JOB_ENDED' });
  }, 240_000);

  it('groups a dead-letter queue by origin, honest past the broker limit, and redrives a group via a quarantine', async () => {
    const work = stack.unique('orders');
    const dlq = await deadLetter(stack.broker, work, 300);

    const groups = DeadLetterGroupsSchema.parse(
      await (await stack.viewer.fetch(`${stack.base()}/queues/${dlq}/dead-letters`)).json(),
    );
    expect(groups.depth).toBe(300);
    // The broker groups the first 200 it looks at (its browse limit): a lower bound, said to be one.
    expect(groups.groups).toEqual([
      expect.objectContaining({
        originQueue: work,
        originAddress: expect.stringContaining(work),
        messages: { count: 200, atLeast: true },
        originExists: true,
      }),
    ]);
    expect(groups.groups[0].oldest).not.toBeNull();

    const impact = MessageJobImpactSchema.parse(
      await (
        await stack.operator.fetch(
          `${stack.base()}/queues/${dlq}/messages/impact?kind=retry&origin=${encodeURIComponent(work)}`,
        )
      ).json(),
    );
    expect(impact.messages).toEqual({ count: 200, atLeast: true });

    // Into a quarantine first: every one of the group, whatever the capped count said.
    const quarantine = `${work}.quarantine`;
    const held = await stack.ended(
      (
        await stack.started(
          await stack.startJob(stack.operator, dlq, 'retry', { origin: work, quarantine, batchSize: 64 }),
        )
      ).id,
    );
    expect(held).toEqual(
      expect.objectContaining({
        status: 'done',
        processed: 300,
        target: quarantine,
        origin: work,
        quarantine: true,
      }),
    );
    expect(await depthOf(stack.broker, dlq)).toBe(0);
    expect(await depthOf(stack.broker, quarantine)).toBe(300);

    // Released to the origin the job recorded (the broker now names the DLQ as their origin).
    const released = await stack.ended(
      (await stack.started(await stack.startJob(stack.operator, quarantine, 'move', { to: work }))).id,
    );
    expect(released).toEqual(expect.objectContaining({ status: 'done', processed: 300 }));
    expect(await depthOf(stack.broker, quarantine)).toBe(0);
    expect(await depthOf(stack.broker, work)).toBe(300);
  }, 240_000);

  it('undoes a quarantine by sending it back to the dead-letter queue, and redrives a group straight back', async () => {
    const held = stack.unique('held');
    const heldDlq = await deadLetter(stack.broker, held, 5);
    const quarantine = `${held}.quarantine`;
    await stack.ended(
      (
        await stack.started(
          await stack.startJob(stack.operator, heldDlq, 'retry', { origin: held, quarantine }),
        )
      ).id,
    );
    const undo = await stack.operator.fetch(`${stack.base()}/queues/${quarantine}/retry`, {
      method: 'POST',
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(undo.status).toBe(200);
    expect(await depthOf(stack.broker, heldDlq)).toBe(5);
    // A move rewrites the broker's origin: back in the DLQ, the group is the quarantine's now.
    const regrouped = DeadLetterGroupsSchema.parse(
      await (await stack.viewer.fetch(`${stack.base()}/queues/${heldDlq}/dead-letters`)).json(),
    );
    expect(regrouped.groups).toEqual([
      expect.objectContaining({ originQueue: quarantine, messages: { count: 5, atLeast: false } }),
    ]);

    const work = stack.unique('payments');
    const dlq = await deadLetter(stack.broker, work, 5);
    const redriven = await stack.ended(
      (await stack.started(await stack.startJob(stack.operator, dlq, 'retry', { origin: work }))).id,
    );
    expect(redriven).toEqual(expect.objectContaining({ status: 'done', processed: 5, target: work }));
    expect(await depthOf(stack.broker, dlq)).toBe(0);
    expect(await depthOf(stack.broker, work)).toBe(5);
  }, 120_000);

  it('retries by filter from a dead-letter queue two queues share, each message back to its own, past the browse limit', async () => {
    const [orders, payments] = [stack.unique('orders'), stack.unique('payments')];
    const dlq = stack.unique('shared.DLQ');
    const region = (i: number) => ({ region: i % 2 === 0 ? 'eu' : 'us' });
    await deadLetter(stack.broker, orders, 250, dlq, region);
    await deadLetter(stack.broker, payments, 40, dlq, region);
    // Put there by hand: it has no queue to go back to, and a retry leaves it where it is.
    await sendTo(stack.broker, dlq, { region: 'eu' });
    const filter = encodeURIComponent("region = 'eu'");

    const impact = MessageJobImpactSchema.parse(
      await (
        await stack.operator.fetch(
          `${stack.base()}/queues/${dlq}/messages/impact?kind=retry&filter=${filter}`,
        )
      ).json(),
    );
    // The broker looks at its first 200 messages for a filtered count: a lower bound, said to be one.
    expect(impact.messages).toEqual({ count: 100, atLeast: true });

    const job = await stack.ended(
      (
        await stack.started(
          await stack.startJob(stack.operator, dlq, 'retry', { filter: "region = 'eu'", batchSize: 32 }),
        )
      ).id,
    );
    expect(job).toEqual(
      expect.objectContaining({ status: 'done', processed: 145, target: null, origin: null, error: null }),
    );
    expect(await depthOf(stack.broker, orders)).toBe(125);
    expect(await depthOf(stack.broker, payments)).toBe(20);
    expect(await depthOf(stack.broker, dlq)).toBe(146);

    // An origin that is gone: refused before anything moves, saying which and how to leave it out.
    const gone = stack.unique('gone');
    await deadLetter(stack.broker, gone, 3, dlq);
    await brokerExec(stack.broker, 'destroyQueue(java.lang.String,boolean,boolean)', [gone, true, true]);
    const refused = await stack.startJob(stack.operator, dlq, 'retry', {});
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain(
      `3 matching messages came from queue '${gone}', which is not on node`,
    );
    expect(await depthOf(stack.broker, dlq)).toBe(149);
  }, 180_000);
});

/** One message sent straight to a queue, with these application properties. */
async function sendTo(broker: BrokerProfile, queue: string, properties: Record<string, string>) {
  const client = await openAmqpClient(broker.nodes[0].amqpUrl, broker.user, broker.password);
  try {
    const sender = await client.createAwaitableSender({
      target: { address: queue, capabilities: ['queue'] },
    });
    await sender.send({ body: 'put here by hand', application_properties: properties });
  } finally {
    await client.close();
  }
}
