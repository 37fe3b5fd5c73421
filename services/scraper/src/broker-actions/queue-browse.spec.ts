import type { JolokiaRequest } from '../jolokia/jolokia-client';
import { BrokerLanes } from '../jolokia/broker-lanes';
import { browsedMessage, QueueBrowser } from './queue-browse';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';

/** As Artemis 2.40 answered `browse(int,int,String)` over Jolokia for AMQP messages (probed). */
const TEXT = {
  address: 'orders',
  messageID: '38876',
  priority: 4,
  type: 3,
  userID: 'ID:m-1',
  redelivered: false,
  LongProperties: { 'applicationProperties.n': 3 },
  IntProperties: null,
  durable: false,
  protocol: 'AMQP',
  persistentSize: 82,
  StringProperties: { 'properties.subject': 'greeting', 'applicationProperties.customer': 'alice' },
  expiration: 0,
  text: 'hello text',
  largeMessage: false,
  BooleanProperties: null,
  timestamp: 0,
};

describe('a browsed message', () => {
  it('keeps every property with its type, and says a message carries no time rather than 1970', () => {
    const sut = browsedMessage(TEXT);
    expect(sut).toEqual(
      expect.objectContaining({
        messageId: '38876',
        userId: 'ID:m-1',
        type: 'text',
        timestamp: null,
        expiration: null,
        properties: {
          'applicationProperties.n': 3,
          'properties.subject': 'greeting',
          'applicationProperties.customer': 'alice',
        },
        body: { preview: 'hello text', encoding: 'text', truncated: false, omitted: null, masked: null },
      }),
    );
  });

  it('marks a body the broker cut at its limit, and how much it left out, never passing the marker on', () => {
    const sut = browsedMessage({ ...TEXT, text: `${'x'.repeat(256)}, + 744 more` });
    expect(sut.body).toEqual({
      preview: 'x'.repeat(256),
      encoding: 'text',
      truncated: true,
      omitted: 744,
      masked: null,
    });
  });

  it('shows bytes as base64 of what the broker showed, and an unknown type as unknown', () => {
    expect(browsedMessage({ ...TEXT, type: 4, text: '\\xff\\xfe\\x00A' }).body).toEqual(
      expect.objectContaining({ preview: '//4AQQ==', encoding: 'base64' }),
    );
    expect(browsedMessage({ ...TEXT, type: 99 }).type).toBe('unknown');
    // What Artemis shows in place of a large message's body is not its body.
    expect(browsedMessage({ ...TEXT, text: '... Large message ...', largeMessage: true }).body).toEqual({
      preview: null,
      encoding: 'text',
      truncated: true,
      omitted: null,
      masked: null,
    });
  });

  it('dates a message by its timestamp when it has one', () => {
    expect(browsedMessage({ ...TEXT, timestamp: 1764583200000 }).timestamp).toBe('2025-12-01T10:00:00.000Z');
  });
});

describe('QueueBrowser', () => {
  const cluster: ClusterNodes = {
    target: { id: 'c' },
    liveNodes: () => [{ id: 'a', name: 'a', jolokiaUrl: 'http://a', amqpUrl: null }],
    brokerName: () => 'a',
    amqpEndpoint: () => null,
    jolokiaTarget: (node) => ({ nodeKey: node.id, jolokiaUrl: node.jolokiaUrl, origin: 'http://x' }),
  };
  const found = { status: 200, value: { 'mbean:orders': { MessageCount: 3, Address: 'orders' } } };
  const page = (state = 200) => [
    { status: state, value: state === 200 ? [TEXT] : undefined, error: state === 200 ? undefined : 'gone' },
    { status: 200, value: JSON.stringify({ managementBrowsePageSize: 200 }) },
    { status: 200, value: { MessageCount: 7 } },
  ];
  const call = { clusterId: '00000000-0000-4000-8000-000000000001', queue: 'orders', page: 1, pageSize: 10 };

  it('looks a queue up once for several pages, reads its depth with each, and looks again once it is gone', async () => {
    const answers = [[found], page(), page(), page(404), [found], page()];
    const asked: JolokiaRequest[][] = [];
    const sut = new QueueBrowser(
      {
        bulk: async (_t: unknown, requests: JolokiaRequest[]) => {
          asked.push(requests);
          return answers.shift()!;
        },
      },
      new BrokerLanes(),
    );
    expect((await sut.page(cluster, call)).depth).toBe(7);
    await sut.page(cluster, call);
    expect(asked.filter((r) => r[0].type === 'read')).toHaveLength(1);
    expect((await sut.page(cluster, call)).messages).toHaveLength(1);
    expect(asked.filter((r) => r[0].type === 'read')).toHaveLength(2);
  });
});
