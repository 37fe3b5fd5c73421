import {
  DeadLetterGroupsSchema,
  MessageJobImpactSchema,
  MessageJobSchema,
  QueueMessagesPageSchema,
  type MessageJob,
  type MessageJobBodyInput,
} from '@artemis-studio/contracts';
import {
  brokerExec,
  errorOf,
  brokerProfile,
  deadLetter,
  depthOf,
  drainQueue,
  fillQueue,
  registerLiveBroker,
  signIn,
  signInAs,
  spawnService,
  testConfig,
  waitFor,
  type ApiSession,
  type BrokerProfile,
  type ServiceProcess,
} from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';

/**
 * Message jobs against the real test broker, through the whole path: gateway → the cluster's owner
 * (a scraper) → Jolokia, in batches. Every count the API reports is checked against the broker's
 * MessageCount on both queues, and by consuming what arrived.
 */
describe('message jobs on a real broker', () => {
  const processes: ServiceProcess[] = [];
  let broker: BrokerProfile;
  let gateway: ServiceProcess;
  let admin: ApiSession;
  let operator: ApiSession;
  let viewer: ApiSession;
  let clusterId: string;
  const base = () => `${gateway.url}/api/v1/clusters/${clusterId}`;
  const unique = (what: string) => `jobs.${what}.${randomUUID().slice(0, 8)}`;

  const start = (
    as: ApiSession,
    queue: string,
    kind: string,
    body: MessageJobBodyInput,
    key: string = randomUUID(),
  ) =>
    as.fetch(`${base()}/queues/${queue}/messages/${kind}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify(body),
    });
  const started = async (response: Response): Promise<MessageJob> => {
    expect(response.status).toBe(202);
    return MessageJobSchema.parse(await response.json());
  };
  const jobNow = async (id: string) =>
    MessageJobSchema.parse(await (await operator.fetch(`${base()}/message-jobs/${id}`)).json());
  const ended = async (id: string): Promise<MessageJob> => {
    let job!: MessageJob;
    await waitFor(`job ${id} to end`, async () => (job = await jobNow(id)).status !== 'running', {
      timeoutMs: 60_000,
    });
    return job;
  };
  /** A queue whose address pages past a few kilobytes: most of what it holds is on disk. */
  const pagingQueue = (queue: string) =>
    brokerExec(broker, 'addAddressSettings(java.lang.String,java.lang.String)', [
      queue,
      JSON.stringify({ maxSizeBytes: 65536, pageSizeBytes: 32768, addressFullMessagePolicy: 'PAGE' }),
    ]);
  const createQueue = (queue: string) =>
    brokerExec(broker, 'createQueue(java.lang.String,boolean)', [
      JSON.stringify({ name: queue, address: queue, 'routing-type': 'ANYCAST' }),
      true,
    ]);

  beforeAll(async () => {
    broker = await brokerProfile(testConfig.brokerProfile);
    gateway = await spawnService('gateway', 18580);
    processes.push(gateway, await spawnService('scraper', 18581));
    admin = await signIn(gateway.url);
    operator = await signInAs(gateway.url, admin, 'operator');
    viewer = await signInAs(gateway.url, admin, 'viewer');
    clusterId = await registerLiveBroker(gateway.url, admin, broker, {
      name: `jobs-${randomUUID().slice(0, 8)}`,
    });
  }, 120_000);

  afterAll(async () => {
    await admin
      ?.fetch(`${gateway.url}/api/v1/clusters/${clusterId}`, { method: 'DELETE' })
      .catch(() => undefined);
    await Promise.all(processes.map((p) => p.stop()));
  });

  it('moves 10,000 messages, most of them paged, in batches: none lost, none doubled', async () => {
    const source = unique('move-from');
    const target = unique('move-to');
    await pagingQueue(source);
    await fillQueue(broker, source, 10_000);
    await createQueue(target);

    const job = await started(await start(operator, source, 'move', { to: target, batchSize: 1000 }));
    expect(job).toEqual(
      expect.objectContaining({
        status: 'running',
        kind: 'move',
        target,
        planned: { count: 10_000, atLeast: false },
        cancellable: true,
      }),
    );
    const done = await ended(job.id);
    expect(done).toEqual(expect.objectContaining({ status: 'done', processed: 10_000, error: null }));
    expect(done.nodes[0].batches).toBeGreaterThanOrEqual(10);
    expect(await depthOf(broker, source)).toBe(0);
    expect(await depthOf(broker, target)).toBe(10_000);
    // The audit row, written as the job started, is read with what the job went on to do.
    const audit = (await (
      await admin.fetch(`${gateway.url}/api/v1/audit?action=queue.messages.move&clusterId=${clusterId}`)
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
    const bodies = await drainQueue(broker, target);
    expect(bodies).toHaveLength(10_000);
    expect(new Set(bodies).size).toBe(10_000);
  }, 240_000);

  it('stops a move half-way when cancelled, reports exactly what moved, and other queues stay browsable meanwhile', async () => {
    const source = unique('cancel-from');
    const target = unique('cancel-to');
    const other = unique('browsed');
    await pagingQueue(source);
    await fillQueue(broker, source, 10_000);
    await createQueue(target);
    await fillQueue(broker, other, 3);

    // Small batches: a long job of a hundred calls, each giving the broker's lock back.
    const job = await started(await start(operator, source, 'move', { to: target, batchSize: 100 }));
    await waitFor('a thousand to have moved', async () => (await jobNow(job.id)).processed >= 1000, {
      timeoutMs: 60_000,
    });
    const browse = await operator.fetch(`${base()}/queues/${other}/messages`);
    expect(browse.status).toBe(200);
    expect(QueueMessagesPageSchema.parse(await browse.json()).messages).toHaveLength(3);

    const cancel = await operator.fetch(`${base()}/message-jobs/${job.id}/cancel`, { method: 'POST' });
    expect(cancel.status).toBe(200);
    const stopped = await ended(job.id);
    expect(stopped.status).toBe('cancelled');
    expect(stopped.processed).toBeLessThan(10_000);
    expect(await depthOf(broker, target)).toBe(stopped.processed);
    expect(await depthOf(broker, source)).toBe(10_000 - stopped.processed);
    // Ended: a second cancel is told so.
    expect(
      await errorOf(await operator.fetch(`${base()}/message-jobs/${job.id}/cancel`, { method: 'POST' })),
    ).toEqual({ status: 409, code: 'MESSAGE_JOB_ENDED' });
  }, 240_000);

  it('groups a dead-letter queue by origin, honest past the broker limit, and redrives a group via a quarantine', async () => {
    const work = unique('orders');
    const dlq = await deadLetter(broker, work, 300);

    const groups = DeadLetterGroupsSchema.parse(
      await (await viewer.fetch(`${base()}/queues/${dlq}/dead-letters`)).json(),
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
        await operator.fetch(
          `${base()}/queues/${dlq}/messages/impact?kind=retry&origin=${encodeURIComponent(work)}`,
        )
      ).json(),
    );
    expect(impact.messages).toEqual({ count: 200, atLeast: true });

    // Into a quarantine first: every one of the group, whatever the capped count said.
    const quarantine = `${work}.quarantine`;
    const held = await ended(
      (await started(await start(operator, dlq, 'retry', { origin: work, quarantine, batchSize: 64 }))).id,
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
    expect(await depthOf(broker, dlq)).toBe(0);
    expect(await depthOf(broker, quarantine)).toBe(300);

    // Released to the origin the job recorded (the broker now names the DLQ as their origin).
    const released = await ended((await started(await start(operator, quarantine, 'move', { to: work }))).id);
    expect(released).toEqual(expect.objectContaining({ status: 'done', processed: 300 }));
    expect(await depthOf(broker, quarantine)).toBe(0);
    expect(await depthOf(broker, work)).toBe(300);
  }, 240_000);

  it('undoes a quarantine by sending it back to the dead-letter queue, and redrives a group straight back', async () => {
    const held = unique('held');
    const heldDlq = await deadLetter(broker, held, 5);
    const quarantine = `${held}.quarantine`;
    await ended((await started(await start(operator, heldDlq, 'retry', { origin: held, quarantine }))).id);
    const undo = await operator.fetch(`${base()}/queues/${quarantine}/retry`, {
      method: 'POST',
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(undo.status).toBe(200);
    expect(await depthOf(broker, heldDlq)).toBe(5);
    // A move rewrites the broker's origin: back in the DLQ, the group is the quarantine's now.
    const regrouped = DeadLetterGroupsSchema.parse(
      await (await viewer.fetch(`${base()}/queues/${heldDlq}/dead-letters`)).json(),
    );
    expect(regrouped.groups).toEqual([
      expect.objectContaining({ originQueue: quarantine, messages: { count: 5, atLeast: false } }),
    ]);

    const work = unique('payments');
    const dlq = await deadLetter(broker, work, 5);
    const redriven = await ended((await started(await start(operator, dlq, 'retry', { origin: work }))).id);
    expect(redriven).toEqual(expect.objectContaining({ status: 'done', processed: 5, target: work }));
    expect(await depthOf(broker, dlq)).toBe(0);
    expect(await depthOf(broker, work)).toBe(5);
  }, 120_000);

  it('copies, moves and deletes chosen messages, and says which it could not reach', async () => {
    const source = unique('chosen');
    const target = unique('chosen-to');
    await fillQueue(broker, source, 5, (i) => ({ body: `chosen ${i}`, durable: true }));
    await createQueue(target);
    const page = QueueMessagesPageSchema.parse(
      await (await operator.fetch(`${base()}/queues/${source}/messages?pageSize=5`)).json(),
    );
    const [a, b, c] = page.messages.map((m) => m.messageId);
    const node = page.node;

    const copied = await ended(
      (await started(await start(operator, source, 'copy', { messageIds: [a, b], node, to: target }))).id,
    );
    expect(copied).toEqual(expect.objectContaining({ status: 'done', processed: 2, chosen: 2 }));
    expect(await depthOf(broker, source)).toBe(5);
    expect(await depthOf(broker, target)).toBe(2);

    // One of the three is gone already (deleted just before): not reached, and said so.
    const deleted = await ended(
      (await started(await start(operator, source, 'delete', { messageIds: [c], node }))).id,
    );
    expect(deleted.processed).toBe(1);
    const moved = await ended(
      (await started(await start(operator, source, 'move', { messageIds: [a, c], node, to: target }))).id,
    );
    expect(moved).toEqual(expect.objectContaining({ status: 'done', processed: 1 }));
    expect(moved.nodes[0].notReached).toBe(1);
    expect(await depthOf(broker, source)).toBe(3);
    expect(await depthOf(broker, target)).toBe(3);
  }, 120_000);

  it('deletes by filter exactly what matches, in one broker call that cannot be cancelled', async () => {
    const queue = unique('filtered');
    await fillQueue(broker, queue, 30, (i) => ({
      body: `m ${i}`,
      durable: true,
      application_properties: { customer: i % 3 === 0 ? 'alice' : 'bob' },
    }));
    const filter = "customer = 'alice'";
    const impact = MessageJobImpactSchema.parse(
      await (
        await operator.fetch(
          `${base()}/queues/${queue}/messages/impact?kind=delete&filter=${encodeURIComponent(filter)}`,
        )
      ).json(),
    );
    expect(impact.messages).toEqual({ count: 10, atLeast: false });
    const job = await ended((await started(await start(operator, queue, 'delete', { filter }))).id);
    expect(job).toEqual(
      expect.objectContaining({
        status: 'done',
        processed: 10,
        cancellable: false,
        planned: { count: 10, atLeast: false },
      }),
    );
    expect(await depthOf(broker, queue)).toBe(20);
  }, 120_000);

  it('refuses what makes no sense, what is nowhere, a viewer and a read-only cluster; a replayed key starts one job', async () => {
    const queue = unique('refused');
    await fillQueue(broker, queue, 4);

    expect(await errorOf(await start(viewer, queue, 'delete', {}))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    expect(await errorOf(await start(operator, queue, 'copy', { to: 'elsewhere' }))).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
    });
    expect(await errorOf(await start(operator, queue, 'move', { to: `${queue}.nowhere` }))).toEqual({
      status: 404,
      code: 'NOT_ON_BROKER',
    });
    expect(await errorOf(await start(operator, `${queue}.nowhere`, 'delete', {}))).toEqual({
      status: 404,
      code: 'NOT_ON_BROKER',
    });
    expect(await errorOf(await start(operator, queue, 'delete', { filter: 'customer =' }))).toEqual({
      status: 400,
      code: 'INVALID_REQUEST',
    });
    expect(await depthOf(broker, queue)).toBe(4);

    const key = randomUUID();
    const first = await started(await start(operator, queue, 'delete', { filter: 'customer IS NULL' }, key));
    const again = await started(await start(operator, queue, 'delete', { filter: 'customer IS NULL' }, key));
    expect(again.id).toBe(first.id);
    const jobs = (await (await viewer.fetch(`${base()}/message-jobs?queue=${queue}`)).json()) as {
      jobs: MessageJob[];
    };
    expect(jobs.jobs.map((j) => j.id)).toEqual([first.id]);
    expect((await ended(first.id)).processed).toBe(4);

    const readOnly = (value: boolean) =>
      admin.fetch(base(), {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ readOnly: value }),
      });
    expect((await readOnly(true)).status).toBe(200);
    try {
      expect(await errorOf(await start(operator, queue, 'delete', {}))).toEqual({
        status: 403,
        code: 'CLUSTER_READ_ONLY',
      });
    } finally {
      await readOnly(false);
    }
  }, 120_000);
});
