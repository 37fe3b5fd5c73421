import {
  DeadLetterGroupsSchema,
  MessageJobSchema,
  QueueMessagesPageSchema,
  type QueueMessagesPage,
} from '@artemis-studio/contracts';
import { deadLetter, depthOf, fillQueue, waitFor } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { BrokerActionsStack } from './broker-actions-stack.fixture';

/** Orders, every 50th rejected; `region` a property the broker's selector reads, `status` in the body only. */
const order = (i: number) => ({
  message_id: `order-${i}`,
  durable: true,
  application_properties: { region: i % 2 === 0 ? 'eu' : 'us' },
  body: JSON.stringify({
    order: i,
    status: i % 50 === 7 ? 'REJECTED' : 'OK',
    lines: [{ sku: `S-${i % 5}` }],
  }),
});

/** Body filters (issue 60, ADR-0038): the owner reads the queue once over AMQP and browses the matches by id. */
describe('filtering by what is inside the message, on a real broker', () => {
  const stack = new BrokerActionsStack();
  const queue = `actions.body.${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    await stack.start();
    const made = await stack.operator.fetch(`${stack.base()}/queues`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ name: queue }),
    });
    expect(made.status).toBe(200);
    // 1,000 orders (20 rejected, past the broker's browse limit of 200), then two it cannot name alone.
    await fillQueue(stack.broker, queue, 1_000, order);
    await fillQueue(stack.broker, queue, 2, (i) => ({
      ...(i === 0 ? {} : { message_id: 'order-7' }),
      durable: true,
      body: JSON.stringify({ status: 'REJECTED', copy: i }),
    }));
  }, 180_000);
  afterAll(() => stack.stop());

  const browse = async (query: Record<string, string>): Promise<QueueMessagesPage> => {
    const response = await stack.operator.fetch(
      `${stack.base()}/queues/${queue}/messages?${new URLSearchParams(query)}`,
    );
    expect(response.status).toBe(200);
    return QueueMessagesPageSchema.parse(await response.json());
  };
  const orderOf = (m: QueueMessagesPage['messages'][number]) =>
    (JSON.parse(m.body.preview ?? '{}') as { order?: number }).order;

  it('reads the whole queue once and finds every match, each with the id the broker acts on', async () => {
    const page = await browse({ body: 'body.status == "REJECTED"', pageSize: '100' });
    expect(page.bodyScan).toMatchObject({ scanned: 1_002, matched: 22, complete: true, stoppedBy: null });
    // order-7 is carried by two messages, and one carries no id: no selector names them alone.
    expect(page.bodyScan!.unselectable).toBe(3);
    expect(page.messages.map(orderOf)).toEqual(
      Array.from({ length: 20 }, (_, k) => k * 50 + 7).filter((i) => i !== 7),
    );
    expect(page.matched).toEqual({ count: 22, atLeast: false });
    expect(page.messages.every((m) => /^\d+$/.test(m.messageId))).toBe(true);
  });

  it('pages by reading no further than the page it was asked for', async () => {
    const first = await browse({ body: 'body.status == "REJECTED"', pageSize: '5' });
    expect(first.bodyScan).toMatchObject({ stoppedBy: 'page', complete: false });
    expect(first.bodyScan!.scanned).toBeLessThan(400);
    const third = await browse({ body: 'body.status == "REJECTED"', pageSize: '5', page: '3' });
    expect(third.messages.map(orderOf)).toEqual([507, 557, 607, 657, 707]);
  });

  it("narrows with the broker's selector first, and reads text and RE2 regexes too", async () => {
    const eu = await browse({
      filter: "region = 'eu'",
      body: 'body.lines.exists(l, l.sku == "S-2")',
      pageSize: '100',
    });
    expect(eu.bodyScan).toMatchObject({ scanned: 500, matched: 100, complete: true });
    expect(eu.filter).toBe("region = 'eu'");
    const text = await browse({ body: '"order":999,', bodyMatch: 'text' });
    expect(text.messages.map(orderOf)).toEqual([999]);
    const regex = await browse({ body: '"order":99[0-9],"status":"REJECTED"', bodyMatch: 'regex' });
    expect(regex.messages.map(orderOf)).toEqual([]);
    expect(regex.bodyScan).toMatchObject({ matched: 0, complete: true });
  });

  it('counts the messages the expression could not evaluate, and says why', async () => {
    const page = await browse({ body: 'body.copy == 1' });
    expect(page.bodyScan).toMatchObject({ matched: 1, failed: 1_000 });
    expect(page.bodyScan!.firstFailure).toMatch(/copy/);
  });

  it('exports exactly the matches, the ones no selector names included, and leaves the queue as it was', async () => {
    const response = await stack.operator.fetch(
      `${stack.base()}/queues/${queue}/export?${new URLSearchParams({ body: 'body.status == "REJECTED"' })}`,
    );
    expect(response.status).toBe(200);
    const lines = (await response.text()).split('\n').filter(Boolean);
    expect(lines).toHaveLength(22);
    expect(lines.every((line) => line.includes('\\"status\\":\\"REJECTED\\"'))).toBe(true);
    expect(await depthOf(stack.broker, queue)).toBe(1_002);
  });

  it('groups a dead-letter queue by origin among the matches, and retries one group of them', async () => {
    const work = `actions.body.work.${randomUUID().slice(0, 8)}`;
    const other = `actions.body.other.${randomUUID().slice(0, 8)}`;
    const dlq = `${work}.DLQ`;
    await deadLetter(stack.broker, work, 30, dlq);
    await deadLetter(stack.broker, other, 20, dlq);
    const query = new URLSearchParams({ body: '^poison (1|2)\\d$', bodyMatch: 'regex' });
    const response = await stack.operator.fetch(`${stack.base()}/queues/${dlq}/dead-letters?${query}`);
    expect(response.status).toBe(200);
    const grouped = DeadLetterGroupsSchema.parse(await response.json());
    expect(grouped.bodyScan).toMatchObject({ scanned: 50, matched: 30, complete: true });
    expect(grouped.groups.map((g) => [g.originQueue, g.messages])).toEqual([
      [work, { count: 20, atLeast: false }],
      [other, { count: 10, atLeast: false }],
    ]);

    const started = await stack.operator.fetch(`${stack.base()}/queues/${dlq}/messages/retry`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ origin: work, bodyFilter: { match: 'regex', expression: '^poison (1|2)\\d$' } }),
    });
    expect(started.status).toBe(202);
    const job = MessageJobSchema.parse(await started.json());
    expect(job.planned).toEqual({ count: 20, atLeast: false });
    await waitFor('the retry to end', async () => {
      const now = MessageJobSchema.parse(
        await (await stack.operator.fetch(`${stack.base()}/message-jobs/${job.id}`)).json(),
      );
      return now.status === 'done' && now.processed === 20;
    });
    expect(await depthOf(stack.broker, work)).toBe(20);
    expect(await depthOf(stack.broker, dlq)).toBe(30);
  });

  it("sees what masking hides no more than a browse shows it, and asks for the cluster's message role", async () => {
    const setMasking = (masking: { properties: string[]; bodyPaths: string[] }) =>
      stack.settings({ masking });
    expect((await setMasking({ properties: [], bodyPaths: ['$.status'] })).status).toBe(200);
    try {
      const masked = await browse({ body: 'body.status == "REJECTED"' });
      expect(masked.bodyScan).toMatchObject({ matched: 0, complete: true });
      const stars = await browse({ body: 'body.status == "***" && body.order == 957' });
      expect(stars.bodyScan).toMatchObject({ matched: 1, complete: true });
    } finally {
      expect((await setMasking({ properties: [], bodyPaths: [] })).status).toBe(200);
    }
    // Grouping dead letters names no contents, but grouping them by a body filter reads them.
    const dlq = await deadLetter(stack.broker, `actions.body.viewer.${randomUUID().slice(0, 8)}`, 2);
    const asViewer = (query: string) =>
      stack.viewer.fetch(`${stack.base()}/queues/${dlq}/dead-letters${query}`);
    expect((await asViewer('')).status).toBe(200);
    expect((await asViewer('?body=poison&bodyMatch=text')).status).toBe(403);
  });

  it('answers an expression that does not parse with 400 and where it stopped, reading nothing', async () => {
    const response = await stack.operator.fetch(
      `${stack.base()}/queues/${queue}/messages?${new URLSearchParams({ body: 'body.status ==' })}`,
    );
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/body filter: .*1:/),
    });
  });
});
