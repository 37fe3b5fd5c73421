import { BrokerChangeResultSchema, QueueMessagesPageSchema } from '@artemis-studio/contracts';
import { errorOf, queueMbean, type ApiSession } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { BrokerActionsStack } from './broker-actions-stack.fixture';

/**
 * Queue actions against the real test broker, through the whole path: gateway → the cluster's
 * owner (a scraper) → Jolokia. What the API says is checked against what the broker says after.
 */

describe('making queues and addresses, and sending a message, on a real broker', () => {
  const stack = new BrokerActionsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

  it("creates a queue with its settings, sends it a message the browse then shows, and refuses both again in the broker's words", async () => {
    const queue = `actions.created.${randomUUID().slice(0, 8)}`;
    const post = (as: ApiSession, path: string, body: unknown, key: string = randomUUID()) =>
      as.fetch(`${stack.base()}/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      });
    const created = await post(stack.operator, 'queues', {
      name: queue,
      maxConsumers: 3,
      filter: "kind = 'order'",
    });
    expect(created.status).toBe(200);
    expect(BrokerChangeResultSchema.parse(await created.json()).nodes).toEqual([
      expect.objectContaining({ node: stack.broker.nodes[0].name, outcome: 'done' }),
    ]);
    const onTheBroker = (await stack.jolokia({
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${stack.broker.nodes[0].name}",component=addresses,address="${queue}",subcomponent=queues,routing-type="anycast",queue="${queue}"`,
      attribute: ['MaxConsumers', 'Filter', 'Durable'],
    })) as { value: { MaxConsumers: number; Filter: string; Durable: boolean } };
    expect(onTheBroker.value).toEqual({ MaxConsumers: 3, Filter: "kind = 'order'", Durable: true });
    // A second create is the broker's refusal, not a 500.
    expect(await errorOf(await post(stack.operator, 'queues', { name: queue }))).toEqual({
      status: 409,
      code: 'BROKER_REFUSED',
    });

    const key = randomUUID();
    const sent = await post(
      stack.operator,
      `queues/${queue}/messages`,
      { body: 'sent from Studio', headers: { kind: 'order' } },
      key,
    );
    expect(sent.status).toBe(200);
    // A retried click sends nothing more.
    expect(
      (
        await post(
          stack.operator,
          `queues/${queue}/messages`,
          { body: 'sent from Studio', headers: { kind: 'order' } },
          key,
        )
      ).status,
    ).toBe(200);
    expect((await stack.onBroker(queue))?.MessageCount).toBe(1);
    const page = QueueMessagesPageSchema.parse(
      await (await stack.operator.fetch(`${stack.base()}/queues/${queue}/messages`)).json(),
    );
    expect(page.messages).toEqual([
      expect.objectContaining({
        body: expect.objectContaining({ preview: 'sent from Studio' }),
        properties: expect.objectContaining({ kind: 'order' }),
      }),
    ]);
    // The body never reaches the audit trail.
    const [row] = await stack.audited('message.send', queue);
    expect(row.detail).toEqual(expect.objectContaining({ bodyBytes: 16, headers: ['kind'] }));
    expect(JSON.stringify(row.detail)).not.toContain('sent from Studio');
    expect(await errorOf(await post(stack.operator, 'queues/no.such.queue/messages', { body: 'x' }))).toEqual(
      {
        status: 404,
        code: 'NOT_ON_BROKER',
      },
    );
  });

  it('sends typed properties over AMQP, as an application would, and they arrive typed', async () => {
    const queue = `actions.typed.${randomUUID().slice(0, 8)}`;
    const post = (path: string, body: unknown) =>
      stack.operator.fetch(`${stack.base()}/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
        body: JSON.stringify(body),
      });
    expect((await post('queues', { name: queue })).status).toBe(200);
    const sent = await post(`queues/${queue}/messages`, {
      body: '{"order":1}',
      headers: { source: 'studio' },
      properties: [
        { name: 'attempt', type: 'int', value: '3' },
        { name: 'orderId', type: 'long', value: '9007199254740993' },
        { name: 'amount', type: 'double', value: '12.5' },
        { name: 'urgent', type: 'boolean', value: 'true' },
      ],
    });
    expect(sent.status).toBe(200);
    const [raw] = (
      (await stack.jolokia({
        type: 'exec',
        mbean: queueMbean(stack.broker, queue),
        operation: 'browse()',
        arguments: [],
      })) as { value: Record<string, Record<string, unknown> | null>[] }
    ).value;
    // As the broker types them (an AMQP message's, named as its application properties).
    expect(raw.IntProperties).toEqual({ 'applicationProperties.attempt': 3 });
    expect(Object.keys(raw.LongProperties ?? {})).toContain('applicationProperties.orderId');
    expect(raw.DoubleProperties).toEqual({ 'applicationProperties.amount': 12.5 });
    expect(raw.BooleanProperties).toEqual({ 'applicationProperties.urgent': true });
    expect(raw.StringProperties).toEqual(
      expect.objectContaining({ 'applicationProperties.source': 'studio' }),
    );
    // A long beyond JavaScript's 2^53 arrives whole: the broker's own filter tells the two apart.
    const mbean = queueMbean(stack.broker, queue);
    const matching = async (filter: string) =>
      (
        (await stack.jolokia({
          type: 'exec',
          mbean,
          operation: 'countMessages(java.lang.String)',
          arguments: [filter],
        })) as { value: number }
      ).value;
    expect(await matching('orderId = 9007199254740993')).toBe(1);
    expect(await matching('orderId = 9007199254740992')).toBe(0);
    // The audit names the properties and their types, never their values.
    const [row] = await stack.audited('message.send', queue);
    expect(row.detail).toEqual(
      expect.objectContaining({
        properties: ['attempt:int', 'orderId:long', 'amount:double', 'urgent:boolean'],
      }),
    );

    // A bad value is a 400 that says which, and a routing type for a queue is refused.
    const bad = await post(`queues/${queue}/messages`, {
      body: 'x',
      properties: [{ name: 'attempt', type: 'int', value: 'three' }],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('attempt: an int is a whole number');
    expect(
      await errorOf(await post(`queues/${queue}/messages`, { body: 'x', routingType: 'MULTICAST' })),
    ).toEqual(expect.objectContaining({ status: 400 }));
    expect((await stack.onBroker(queue))?.MessageCount).toBe(1);
  });

  it('creates and deletes an address for an administrator only, and keeps bound queues unless told', async () => {
    const address = `actions.address.${randomUUID().slice(0, 8)}`;
    const request = (as: ApiSession, method: string, path: string, body?: unknown) =>
      as.fetch(`${stack.base()}/${path}`, {
        method,
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    expect(await errorOf(await request(stack.operator, 'POST', 'addresses', { name: address }))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
    const made = await request(stack.admin, 'POST', 'addresses', {
      name: address,
      routingTypes: ['MULTICAST'],
    });
    // Its own words when it is not a 200, so a failure explains itself.
    expect(made.status === 200 ? 200 : await made.text()).toBe(200);
    expect({ status: made.status, body: await made.text() }).toEqual({
      status: 200,
      body: expect.any(String),
    });
    for (const sub of ['sub', 'sub2'])
      expect(
        (
          await request(stack.operator, 'POST', 'queues', {
            name: `${address}.${sub}`,
            address,
            routingType: 'MULTICAST',
          })
        ).status,
      ).toBe(200);
    // Sent to the address, a message reaches every queue bound to it.
    const sent = await request(stack.operator, 'POST', `addresses/${address}/messages`, { body: 'to all' });
    expect(BrokerChangeResultSchema.parse(await sent.json())).toEqual(
      expect.objectContaining({ kind: 'send-to-address', target: address }),
    );
    for (const sub of ['sub', 'sub2']) {
      const depth = await stack.jolokia({
        type: 'read',
        mbean: `org.apache.activemq.artemis:broker="${stack.broker.nodes[0].name}",component=addresses,address="${address}",subcomponent=queues,routing-type="multicast",queue="${address}.${sub}"`,
        attribute: 'MessageCount',
      });
      expect(depth.value).toBe(1);
    }
    expect(
      await errorOf(
        await request(stack.operator, 'POST', `addresses/${address}.none/messages`, { body: 'x' }),
      ),
    ).toEqual({ status: 404, code: 'NOT_ON_BROKER' });
    expect(await errorOf(await request(stack.admin, 'DELETE', `addresses/${address}`))).toEqual({
      status: 409,
      code: 'BROKER_REFUSED',
    });
    expect((await request(stack.admin, 'DELETE', `addresses/${address}?removeQueues=true`)).status).toBe(200);
    const gone = await stack.jolokia({
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${stack.broker.nodes[0].name}",component=addresses,address="${address}"`,
      attribute: 'RoutingTypes',
    });
    expect(gone.status).toBe(404);
  });

  it('sends to an address with both routing types to its anycast or its multicast queues only, when asked', async () => {
    const address = `actions.routed.${randomUUID().slice(0, 8)}`;
    const post = (as: ApiSession, path: string, body: unknown) =>
      as.fetch(`${stack.base()}/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
        body: JSON.stringify(body),
      });
    const made = await post(stack.admin, 'addresses', {
      name: address,
      routingTypes: ['ANYCAST', 'MULTICAST'],
    });
    expect(made.status === 200 ? 200 : await made.text()).toBe(200);
    for (const routingType of ['ANYCAST', 'MULTICAST']) {
      const queue = await post(stack.operator, 'queues', {
        name: `${address}.${routingType}`,
        address,
        routingType,
      });
      expect(queue.status === 200 ? 200 : await queue.text()).toBe(200);
    }
    const depth = async (routingType: string) =>
      (
        await stack.jolokia({
          type: 'read',
          mbean: queueMbean(stack.broker, `${address}.${routingType}`, address).replace(
            'routing-type="anycast"',
            `routing-type="${routingType.toLowerCase()}"`,
          ),
          attribute: 'MessageCount',
        })
      ).value;
    expect(
      (await post(stack.operator, `addresses/${address}/messages`, { body: 'm', routingType: 'MULTICAST' }))
        .status,
    ).toBe(200);
    expect([await depth('ANYCAST'), await depth('MULTICAST')]).toEqual([0, 1]);
    expect(
      (await post(stack.operator, `addresses/${address}/messages`, { body: 'a', routingType: 'ANYCAST' }))
        .status,
    ).toBe(200);
    expect([await depth('ANYCAST'), await depth('MULTICAST')]).toEqual([1, 1]);
  });
});
