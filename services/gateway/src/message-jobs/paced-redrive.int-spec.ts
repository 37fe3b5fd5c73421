import { AlertListSchema } from '@artemis-studio/contracts';
import {
  brokerJolokia,
  deadLetter,
  depthOf,
  openAmqpClient,
  queueMbean,
  waitFor,
} from '@artemis-studio/testing';
import { MessageJobsStack } from './message-jobs-stack.fixture';

/** Redrives that watch where they send (issue 60): a rate, a start gate, a return guard. */
describe('paced redrives on a real broker', () => {
  const stack = new MessageJobsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

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

  it('pauses a redrive on bounce-back when its consumer still rejects them, the account agreeing with the broker, and resumes it once the consumer is fixed', async () => {
    const work = stack.unique('bouncing');
    const dlq = await deadLetter(stack.broker, work, 400);
    const mbean = queueMbean(stack.broker, work);
    const rule = await stack.admin.fetch(`${stack.base()}/alert-rules`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'redrive bounced', kind: 'studio-redrive-paused', threshold: 600 }),
    });
    expect(rule.status).toBe(201);
    const ruleId = ((await rule.json()) as { id: string }).id;
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
    let accepted = 0;
    try {
      const broken = await client.createReceiver({
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
      // And the operator is told without watching: the rule on paused redrives fires.
      const alert = await waitFor(
        'the paused-redrive alert',
        async () => {
          const list = AlertListSchema.parse(
            await (await stack.operator.fetch(`${stack.gateway.url}/api/v1/alerts?rule=${ruleId}`)).json(),
          );
          return list.items.find((a) => a.state === 'firing');
        },
        { timeoutMs: 30_000, intervalMs: 500 },
      );
      expect(alert).toEqual(expect.objectContaining({ subject: 'redrives', value: 1 }));

      // The consumer is fixed: resumed, the job redrives what is left (what came back among it).
      await broken.close();
      await client.createReceiver({
        source: { address: work, capabilities: ['queue'] },
        onMessage: () => void accepted++,
        onError: () => undefined,
      });
      const resumed = await stack.resumeJob(stack.admin, job.id);
      expect(resumed.status).toBe(200);
      expect(await resumed.json()).toEqual(
        expect.objectContaining({
          status: 'running',
          resumes: 1,
          // What it had done, and what the broker counts now: the 400 again, past its browse limit
          // a lower bound as the first count was.
          planned: { count: paused.processed + paused.planned!.count, atLeast: true },
        }),
      );
      const done = await stack.ended(job.id);
      expect(done).toEqual(
        expect.objectContaining({
          status: 'done',
          error: null,
          resumes: 1,
          processed: paused.processed + 400,
          returned: paused.returned,
        }),
      );
      await waitFor('the fixed consumer to have them all', async () => accepted === 400, {
        timeoutMs: 15_000,
      });
      expect(await depthOf(stack.broker, dlq)).toBe(0);
      // Done is done: another resume is a 409 that says why, and changes nothing.
      const again = await stack.resumeJob(stack.operator, job.id);
      expect(again.status).toBe(409);
      expect(await again.json()).toEqual({
        error: expect.objectContaining({
          code: 'MESSAGE_JOB_NOT_PAUSED',
          message: 'only a paused job resumes; this one is done',
        }),
      });
    } finally {
      await client.close();
    }
  }, 150_000);
});
