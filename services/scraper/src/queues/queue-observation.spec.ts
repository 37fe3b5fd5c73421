import { parseQueues } from './queue-observation';

describe('parseQueues', () => {
  it('maps every queue MBean of the wildcard answer, whatever the key order of its name', () => {
    const answer = {
      status: 200,
      value: {
        'org.apache.activemq.artemis:address="orders",broker="a",component=addresses,queue="orders",routing-type="anycast",subcomponent=queues':
          {
            Name: 'orders',
            Address: 'orders',
            RoutingType: 'ANYCAST',
            MessageCount: 5,
            ConsumerCount: 1,
            Paused: false,
            Durable: true,
          },
      },
    };
    expect(parseQueues([answer]).queues).toEqual([
      expect.objectContaining({
        name: 'orders',
        address: 'orders',
        routingType: 'ANYCAST',
        messageCount: 5,
        consumerCount: 1,
        durable: true,
      }),
    ]);
  });

  it("takes the oldest message's send time where the broker gives one, and unknown otherwise, never 1970", () => {
    const read = (FirstMessageTimestamp: unknown) =>
      parseQueues([
        {
          status: 200,
          value: {
            [`org.apache.activemq.artemis:address="q",broker="a",component=addresses,queue="q",routing-type="anycast",subcomponent=queues`]:
              { Name: 'q', Address: 'q', RoutingType: 'ANYCAST', MessageCount: 1, FirstMessageTimestamp },
          },
        },
      ]).queues[0];
    expect(read(1764583200000)).toEqual(expect.objectContaining({ firstMessageAt: new Date(1764583200000) }));
    // An empty queue (null), a head with no time (0), a broker that failed to say: unknown, and the queue kept.
    for (const unknown of [null, 0, 'ERROR: java.lang.IllegalStateException: x', undefined])
      expect(read(unknown)).toEqual(expect.objectContaining({ firstMessageAt: null, messageCount: 1 }));
  });

  it('treats "no MBean matches" as no queues, and any other failure as a failure', () => {
    expect(parseQueues([{ status: 404, error: 'javax.management.InstanceNotFoundException' }])).toEqual({
      queues: [],
      unreadable: [],
    });
    expect(() => parseQueues([{ status: 500, error: 'boom' }])).toThrow(/boom/);
  });

  // What a broker that is stopping gives in place of a value, under Jolokia's ignoreErrors.
  const notStarted = 'ERROR: java.lang.IllegalStateException: Broker is not started';
  const mbean = (queue: string) =>
    `org.apache.activemq.artemis:address="orders",broker="a",component=addresses,queue=${queue},routing-type="anycast",subcomponent=queues`;

  it('keeps a queue whose figures came back as errors apart, never as a depth of 0', () => {
    const reading = parseQueues([
      {
        status: 200,
        value: {
          [mbean('"orders"')]: { Name: 'orders', MessageCount: notStarted, ConsumerCount: 2 },
          [mbean('"audit"')]: { Name: 'audit', MessageCount: 7, Paused: notStarted },
        },
      },
    ]);
    expect(reading.queues).toEqual([]);
    expect(reading.unreadable).toEqual([
      { name: 'orders', reason: `MessageCount: ${notStarted}` },
      { name: 'audit', reason: `Paused: ${notStarted}` },
    ]);
  });

  it('names an unreadable queue by its MBean when its Name failed too, quotes and all', () => {
    const reading = parseQueues([
      {
        status: 200,
        value: { [mbean('"say \\"hi\\", a\\\\b"')]: { Name: notStarted, MessageCount: notStarted } },
      },
    ]);
    expect(reading.unreadable).toEqual([
      { name: 'say "hi", a\\b', reason: `Name, MessageCount: ${notStarted}` },
    ]);
  });

  it('takes an attribute the broker does not have as absent, not as an error', () => {
    const reading = parseQueues([
      { status: 200, value: { [mbean('"orders"')]: { Name: 'orders', MessageCount: 3 } } },
    ]);
    expect(reading.unreadable).toEqual([]);
    expect(reading.queues).toEqual([
      expect.objectContaining({ name: 'orders', messageCount: 3, messagesKilled: 0 }),
    ]);
  });

  it('fails the read when a queue cannot be told apart, rather than read it as deleted', () => {
    expect(() =>
      parseQueues([
        { status: 200, value: { 'org.apache.activemq.artemis:broker="a"': { Name: notStarted } } },
      ]),
    ).toThrow(/no name for/);
  });
});
