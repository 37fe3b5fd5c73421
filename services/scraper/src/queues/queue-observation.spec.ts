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
