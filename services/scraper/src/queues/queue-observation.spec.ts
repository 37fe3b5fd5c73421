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
    expect(parseQueues([answer])).toEqual([
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
    expect(parseQueues([{ status: 404, error: 'javax.management.InstanceNotFoundException' }])).toEqual([]);
    expect(() => parseQueues([{ status: 500, error: 'boom' }])).toThrow(/boom/);
  });
});
