import { browsedMessage } from './queue-browse';

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
        body: { preview: 'hello text', truncated: false, omitted: null, masked: null },
      }),
    );
  });

  it('marks a body the broker cut at its limit, and how much it left out, never passing the marker on', () => {
    const sut = browsedMessage({ ...TEXT, text: `${'x'.repeat(256)}, + 744 more` });
    expect(sut.body).toEqual({ preview: 'x'.repeat(256), truncated: true, omitted: 744, masked: null });
  });

  it('shows bytes as the broker escaped them, and an unknown type as unknown', () => {
    expect(browsedMessage({ ...TEXT, type: 4, text: '\\xff\\xfe\\x00A' }).body.preview).toBe(
      '\\xff\\xfe\\x00A',
    );
    expect(browsedMessage({ ...TEXT, type: 99 }).type).toBe('unknown');
    // What Artemis shows in place of a large message's body is not its body.
    expect(browsedMessage({ ...TEXT, text: '... Large message ...', largeMessage: true }).body).toEqual({
      preview: null,
      truncated: true,
      omitted: null,
      masked: null,
    });
  });

  it('dates a message by its timestamp when it has one', () => {
    expect(browsedMessage({ ...TEXT, timestamp: 1764583200000 }).timestamp).toBe('2025-12-01T10:00:00.000Z');
  });
});
