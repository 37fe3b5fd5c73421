import { QueueMessagesPageSchema } from '@artemis-studio/contracts';
import { errorOf, openAmqpClient } from '@artemis-studio/testing';
import { randomUUID } from 'node:crypto';
import { BrokerActionsStack } from './broker-actions-stack.fixture';

/**
 * Queue actions against the real test broker, through the whole path: gateway → the cluster's
 * owner (a scraper) → Jolokia. What the API says is checked against what the broker says after.
 */

describe("browsing and masking a queue's messages on a real broker", () => {
  const stack = new BrokerActionsStack();

  beforeAll(() => stack.start(), 120_000);
  afterAll(() => stack.stop());

  it('browses text, bytes, a 1 MiB body and a paged queue, marks what the broker cut, and says an invalid filter in its words', async () => {
    const queue = `actions.browse.${randomUUID().slice(0, 8)}`;
    // Paging from the first kilobytes: the queue holds more than its address may keep in memory.
    const paging = await stack.jolokia({
      type: 'exec',
      mbean: `org.apache.activemq.artemis:broker="${stack.broker.nodes[0].name}"`,
      operation: 'addAddressSettings(java.lang.String,java.lang.String)',
      arguments: [
        queue,
        JSON.stringify({ maxSizeBytes: 20480, pageSizeBytes: 10240, addressFullMessagePolicy: 'PAGE' }),
      ],
    });
    expect(paging.status).toBe(200);
    const client = await openAmqpClient(
      stack.broker.nodes[0].amqpUrl,
      stack.broker.user,
      stack.broker.password,
    );
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      await sender.send({ body: 'héllo, wörld', application_properties: { customer: 'alice', n: 3 } });
      await sender.send({
        body: Buffer.from([0xff, 0xfe, 0x00, 0x41]),
        application_properties: { customer: 'bob' },
      });
      await sender.send({ body: 'x'.repeat(1024 * 1024) });
      await sender.send({ body: 'z'.repeat(1000) });
      for (let i = 0; i < 200; i++) await sender.send({ body: `filler ${i} ${'y'.repeat(500)}` });
    } finally {
      await client.close();
    }
    const addressState = await stack.jolokia({
      type: 'read',
      mbean: `org.apache.activemq.artemis:broker="${stack.broker.nodes[0].name}",component=addresses,address="${queue}"`,
      attribute: 'Paging',
    });
    expect(addressState.value).toBe(true);
    const browse = async (query: string) => {
      const response = await stack.operator.fetch(`${stack.base()}/queues/${queue}/messages?${query}`);
      expect(response.status).toBe(200);
      return QueueMessagesPageSchema.parse(await response.json());
    };

    const first = await browse('pageSize=4');
    expect(first.depth).toBe(204);
    expect(first.matched).toBeNull();
    const [text, bytes, large, long] = first.messages;
    expect(text).toEqual(
      expect.objectContaining({
        type: 'text',
        properties: expect.objectContaining({
          'applicationProperties.customer': 'alice',
          'applicationProperties.n': 3,
        }),
        body: { preview: 'héllo, wörld', encoding: 'text', truncated: false, omitted: null, masked: null },
      }),
    );
    // The broker writes an AMQP body's bytes escaped; they come back as base64 of the bytes sent.
    expect(bytes.body).toEqual(expect.objectContaining({ preview: '//4AQQ==', encoding: 'base64' }));
    // A large message's body is not shown at all; a long one is cut at the broker's limit, and says so.
    expect(large).toEqual(
      expect.objectContaining({
        largeMessage: true,
        body: { preview: null, encoding: 'text', truncated: true, omitted: null, masked: null },
      }),
    );
    expect(long.body).toEqual({
      preview: 'z'.repeat(256),
      encoding: 'text',
      truncated: true,
      omitted: 744,
      masked: null,
    });

    // Past what the address keeps in memory: the broker reads the page files for these.
    const deep = await browse('page=40&pageSize=5');
    expect(deep.messages.map((m) => m.body.preview?.slice(0, 10))).toEqual([
      'filler 191',
      'filler 192',
      'filler 193',
      'filler 194',
      'filler 195',
    ]);

    const filtered = await browse(`filter=${encodeURIComponent("customer = 'bob'")}`);
    expect(filtered.messages.map((m) => m.properties['applicationProperties.customer'])).toEqual(['bob']);
    // The broker counted among the first 200 of 204 only: a lower bound, said so.
    expect(filtered.matched).toEqual({ count: 1, atLeast: true });

    const invalid = await stack.operator.fetch(
      `${stack.base()}/queues/${queue}/messages?filter=${encodeURIComponent('customer =')}`,
    );
    expect(await errorOf(invalid)).toEqual({ status: 400, code: 'INVALID_REQUEST' });
    // Bodies are the operator's: a viewer is refused.
    expect(await errorOf(await stack.viewer.fetch(`${stack.base()}/queues/${queue}/messages`))).toEqual({
      status: 403,
      code: 'FORBIDDEN',
    });
  }, 120_000);

  it('masks properties and body paths before a message leaves the gateway, and lets the cluster choose who reads them', async () => {
    const queue = `actions.masked.${randomUUID().slice(0, 8)}`;
    const client = await openAmqpClient(
      stack.broker.nodes[0].amqpUrl,
      stack.broker.user,
      stack.broker.password,
    );
    try {
      const sender = await client.createAwaitableSender({
        target: { address: queue, capabilities: ['queue'] },
      });
      await sender.send({
        body: JSON.stringify({
          customer: { email: 'alice@example.com' },
          cards: [{ pan: '4111111111111111' }],
        }),
        application_properties: { email: 'alice@example.com', kind: 'order' },
      });
      await sender.send({ body: 'email=bob@example.com', application_properties: { kind: 'note' } });
    } finally {
      await client.close();
    }
    const { settings } = stack;
    expect(
      (
        await settings({
          masking: { properties: ['email'], bodyPaths: ['$.customer.email', '$.cards[*].pan'] },
        })
      ).status,
    ).toBe(200);
    try {
      const response = await stack.operator.fetch(`${stack.base()}/queues/${queue}/messages`);
      const text = await response.text();
      // Nothing masked leaves the gateway, in any part of the answer.
      expect(text).not.toContain('alice@example.com');
      expect(text).not.toContain('4111111111111111');
      expect(text).not.toContain('bob@example.com');
      const [json, plain] = QueueMessagesPageSchema.parse(JSON.parse(text)).messages;
      expect(json.properties['applicationProperties.email']).toBe('***');
      expect(json.properties['applicationProperties.kind']).toBe('order');
      expect(JSON.parse(json.body.preview!)).toEqual({ customer: { email: '***' }, cards: [{ pan: '***' }] });
      expect(json.body.masked).toBe('masked');
      // Not JSON: the body paths cannot be applied, so the body is withheld.
      expect(plain.body).toEqual(expect.objectContaining({ preview: null, masked: 'withheld' }));

      expect((await stack.viewer.fetch(`${stack.base()}/queues/${queue}/messages`)).status).toBe(403);
      expect((await settings({ messageBodies: 'viewer' })).status).toBe(200);
      expect((await stack.viewer.fetch(`${stack.base()}/queues/${queue}/messages`)).status).toBe(200);
      expect((await settings({ messageBodies: 'admin' })).status).toBe(200);
      expect(await errorOf(await stack.operator.fetch(`${stack.base()}/queues/${queue}/messages`))).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      expect(
        await errorOf(await settings({ masking: { properties: [], bodyPaths: ['customer.email'] } })),
      ).toEqual({ status: 400, code: 'VALIDATION_FAILED' });
    } finally {
      await settings({ messageBodies: 'operator', masking: { properties: [], bodyPaths: [] } });
    }
  }, 60_000);
});
