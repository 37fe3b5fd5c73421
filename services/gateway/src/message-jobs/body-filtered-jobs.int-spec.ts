import { MessageJobImpactSchema } from '@artemis-studio/contracts';
import { brokerExec, depthOf, drainQueue, fillQueue } from '@artemis-studio/testing';
import { MessageJobsStack } from './message-jobs-stack.fixture';

/** Orders with JSON bodies; every 100th is rejected, a fact only the body holds. */
const order = (i: number) => ({
  message_id: `order-${i}`,
  durable: true,
  body: JSON.stringify({ order: i, status: i % 100 === 42 ? 'REJECTED' : 'OK' }),
});
const REJECTED = 'body.status == "REJECTED"';

/** Jobs by body filter (issue 60, ADR-0038): one read of the queue, then the matches moved by id. */
describe('a message job that selects by what is inside the messages, on a real broker', () => {
  const stack = new MessageJobsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

  it('counts, then moves exactly the matches of a paging queue, each read once', async () => {
    const source = stack.unique('body-from');
    const target = stack.unique('body-to');
    // Most of the queue is in page files: the scan and the moves reach them there too.
    await stack.pagingQueue(source);
    await fillQueue(stack.broker, source, 20_000, order);
    await stack.createQueue(target);

    const impactResponse = await stack.operator.fetch(
      `${stack.base()}/queues/${source}/messages/impact?${new URLSearchParams({ kind: 'move', body: REJECTED })}`,
    );
    const impactBody: unknown = await impactResponse.json();
    expect({ status: impactResponse.status, impactBody }).toMatchObject({ status: 200 });
    const impact = MessageJobImpactSchema.parse(impactBody);
    expect(impact.messages).toEqual({ count: 200, atLeast: false });
    // Each message read once: 20,000 in 40 reads of 500, and the last one finding the end. (The
    // bench reads 100,000; here the shared test broker's 512 MB heap is spared a scan's garbage.)
    expect(impact.bodyScan).toMatchObject({
      scanned: 20_000,
      reads: 41,
      matched: 200,
      unselectable: 0,
      complete: true,
    });

    const job = await stack.started(
      await stack.startJob(stack.operator, source, 'move', {
        to: target,
        batchSize: 500,
        bodyFilter: { match: 'cel', expression: REJECTED },
      }),
    );
    expect(job).toMatchObject({
      planned: { count: 200, atLeast: false },
      bodyFilter: { match: 'cel', expression: REJECTED },
      bodyScan: expect.objectContaining({ scanned: 20_000, matched: 200 }),
    });
    const done = await stack.ended(job.id);
    expect(done).toMatchObject({
      status: 'done',
      processed: 200,
      nodes: [expect.objectContaining({ notReached: 0, batches: 1 })],
    });
    expect(await depthOf(stack.broker, source)).toBe(19_800);
    const moved = await drainQueue(stack.broker, target);
    expect(moved).toHaveLength(200);
    expect(moved.every((body) => body.includes('"status":"REJECTED"'))).toBe(true);
    // Gone from the shared broker, so the suites after this one do not carry its pages.
    await brokerExec(stack.broker, 'destroyQueue(java.lang.String,boolean,boolean)', [source, true, true]);
  }, 240_000);

  it('counts the matches the broker no longer had when their batch came as not reached', async () => {
    const source = stack.unique('body-gone');
    await fillQueue(stack.broker, source, 300, order);
    const job = await stack.started(
      await stack.startJob(stack.operator, source, 'delete', {
        bodyFilter: { match: 'regex', expression: '"order":(42|142|242),' },
        batchSize: 1,
        rate: 1,
      }),
    );
    // One a second: consume the queue while the job waits between its batches.
    await drainQueue(stack.broker, source, 500);
    const done = await stack.ended(job.id);
    expect(done.planned).toEqual({ count: 3, atLeast: false });
    expect(done.processed + done.nodes[0].notReached).toBe(3);
    expect(done.nodes[0].notReached).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a copy by body filter and an expression that does not parse, before anything changes', async () => {
    const source = stack.unique('body-refused');
    await fillQueue(stack.broker, source, 10, order);
    const copy = await stack.startJob(stack.operator, source, 'copy', {
      to: 'elsewhere',
      bodyFilter: { match: 'cel', expression: REJECTED },
    });
    expect(copy.status).toBe(400);
    const broken = await stack.startJob(stack.operator, source, 'delete', {
      bodyFilter: { match: 'cel', expression: 'body.status ==' },
    });
    expect(broken.status).toBe(400);
    expect(await depthOf(stack.broker, source)).toBe(10);
  });
});
