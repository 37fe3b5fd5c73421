import {
  DeadLetterGroupsSchema,
  MessageJobImpactSchema,
  QueueMessagesPageSchema,
} from '@artemis-studio/contracts';
import {
  brokerJolokia,
  deadLetter,
  depthOf,
  drainQueue,
  errorOf,
  fillQueue,
  openAmqpClient,
  queueMbean,
  waitFor,
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

  it('redrives 2,000 messages at 50 a second in 40 s, once the origin has a consumer and is not paused', async () => {
    const work = stack.unique('paced');
    const dlq = await deadLetter(stack.broker, work, 2_000);
    const job = await stack.started(
      await stack.startJob(stack.operator, dlq, 'retry', { origin: work, rate: 50, waitForConsumer: true }),
    );
    expect(job).toEqual(expect.objectContaining({ rate: 50, waitForConsumer: true, batchSize: 25 }));
    const node = stack.broker.nodes[0].name;
    const waitingFor = (why: string) =>
      waitFor(`the job to wait: ${why}`, async () => (await stack.jobNow(job.id)).waiting === why, {
        timeoutMs: 15_000,
      });
    await waitingFor(`no consumer on ${work} on ${node}`);

    const mbean = queueMbean(stack.broker, work);
    await brokerJolokia(stack.broker, { type: 'exec', mbean, operation: 'pause()', arguments: [] });
    const client = await openAmqpClient(
      stack.broker.nodes[0].amqpUrl,
      stack.broker.user,
      stack.broker.password,
    );
    let received = 0;
    try {
      await client.createReceiver({
        source: { address: work, capabilities: ['queue'] },
        onMessage: () => void received++,
        onError: () => undefined,
      });
      await waitingFor(`${work} is paused on ${node}`);
      expect(await depthOf(stack.broker, dlq)).toBe(2_000);

      await brokerJolokia(stack.broker, { type: 'exec', mbean, operation: 'resume()', arguments: [] });
      await waitFor('the gate to open', async () => (await stack.jobNow(job.id)).waiting === null, {
        timeoutMs: 15_000,
        intervalMs: 100,
      });
      const opened = Date.now();
      const done = await waitFor(
        'the paced redrive to end',
        async () => (await stack.jobNow(job.id)).status !== 'running',
        { timeoutMs: 90_000, intervalMs: 100 },
      ).then(() => stack.jobNow(job.id));
      const seconds = (Date.now() - opened) / 1000;
      expect(done).toEqual(expect.objectContaining({ status: 'done', processed: 2_000, waiting: null }));
      // 2,000 at 50 a second: 40 s, within 10%.
      expect(seconds).toBeGreaterThan(36);
      expect(seconds).toBeLessThan(44);
      await waitFor('the consumer to have them all', async () => received === 2_000, { timeoutMs: 15_000 });
      expect(await depthOf(stack.broker, dlq)).toBe(0);
    } finally {
      await client.close();
    }
  }, 180_000);

  it('pauses a redrive on bounce-back when its consumer still rejects them, the account agreeing with the broker', async () => {
    const work = stack.unique('bouncing');
    const dlq = await deadLetter(stack.broker, work, 400);
    const mbean = queueMbean(stack.broker, work);
    const killedBefore = (
      await brokerJolokia(stack.broker, { type: 'read', mbean, attribute: 'MessagesKilled' })
    ).value as number;
    // The consumer is still broken: with one delivery allowed, each message goes straight back.
    const client = await openAmqpClient(
      stack.broker.nodes[0].amqpUrl,
      stack.broker.user,
      stack.broker.password,
    );
    let rejected = 0;
    try {
      await client.createReceiver({
        source: { address: work, capabilities: ['queue'] },
        autoaccept: false,
        onMessage: (context) => {
          context.delivery!.reject();
          rejected++;
        },
        onError: () => undefined,
      });
      const job = await stack.started(
        await stack.startJob(stack.operator, dlq, 'retry', {
          origin: work,
          rate: 50,
          waitForConsumer: true,
          pauseOnReturns: { percent: 30, withinSeconds: 60 },
        }),
      );
      const paused = await stack.ended(job.id);
      expect(paused).toEqual(
        expect.objectContaining({
          status: 'paused',
          error: expect.stringMatching(/came back \(more than 30%\)$/),
        }),
      );
      // It stopped within a few batches of 25, not after the 400.
      expect(paused.processed).toBeGreaterThanOrEqual(25);
      expect(paused.processed).toBeLessThanOrEqual(100);
      // Every message it sent was rejected and came back, and the job counted each of them.
      expect(rejected).toBe(paused.processed);
      expect(paused.returned).toBe(paused.processed);
      const killed = (await brokerJolokia(stack.broker, { type: 'read', mbean, attribute: 'MessagesKilled' }))
        .value as number;
      expect(killed - killedBefore).toBe(paused.returned);
      // Sent, returned and left: the DLQ holds all 400 again, and nothing more is sent.
      expect(await depthOf(stack.broker, dlq)).toBe(400);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(rejected).toBe(paused.processed);
    } finally {
      await client.close();
    }
  }, 120_000);
});
