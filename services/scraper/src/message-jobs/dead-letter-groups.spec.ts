import { RpcError } from '@artemis-studio/bus';
import { firstOfGroup, parseGroups } from './dead-letter-groups';

describe('dead-letter groups', () => {
  it("reads the broker's grouped count, biggest first, messages without an origin as null", () => {
    // As Artemis 2.40 answered countMessages("", "_AMQ_ORIG_QUEUE") over Jolokia (probed).
    expect(parseGroups({ status: 200, value: '{"payments":3,"orders":197,"null":2}' })).toEqual([
      { origin: 'orders', count: 197 },
      { origin: 'payments', count: 3 },
      { origin: null, count: 2 },
    ]);
  });

  it('passes on an invalid filter as the caller’s to fix', () => {
    expect(() =>
      parseGroups({
        status: 500,
        error: 'ActiveMQInvalidFilterExpressionException : AMQ229020: Invalid filter: x',
      }),
    ).toThrow(RpcError);
  });

  it("finds a group's origin address whether the message is AMQP or Core, and no time when it carries none", () => {
    const amqp = {
      status: 200,
      value: [
        {
          timestamp: 1764583200000,
          StringProperties: {
            'extraProperties._AMQ_ORIG_ADDRESS': 'orders',
            'extraProperties._AMQ_ORIG_QUEUE': 'orders',
          },
        },
      ],
    };
    expect(firstOfGroup(amqp)).toEqual({ originAddress: 'orders', oldest: '2025-12-01T10:00:00.000Z' });
    expect(
      firstOfGroup({ status: 200, value: [{ timestamp: 0, StringProperties: { _AMQ_ORIG_ADDRESS: 'x' } }] }),
    ).toEqual({
      originAddress: 'x',
      oldest: null,
    });
    expect(firstOfGroup(undefined)).toEqual({ originAddress: null, oldest: null });
  });
});
