import { QueueFactBuilder } from './queue-facts';
import { readQueues } from './conditions';
import { observedQueue } from '../../queues/queue-observation.fixture';

/** queue-stranded over what a tick read of each node: the facts, then the rule's reading. */
describe('the queue-stranded rule', () => {
  const rule = { kind: 'queue-stranded' as const, subjects: '*', threshold: null };
  const reading = (copies: [string, number, number][]) => {
    const builder = new QueueFactBuilder();
    const nodes = copies.map(([nodeId, messageCount, consumerCount]) => ({
      nodeId,
      queues: [observedQueue('orders', { messageCount, consumerCount })],
      unread: [],
      addresses: null,
    }));
    return readQueues(rule, builder.indexed(nodes, new Date()), new Date())[0];
  };

  it('holds with the count of messages on the nodes without consumers while another node has them', () => {
    expect(
      reading([
        ['a', 0, 1],
        ['b', 10, 0],
        ['c', 5, 0],
      ]),
    ).toMatchObject({ holds: true, value: 15 });
  });

  it('does not hold with consumers on every node holding messages, nor with no consumer anywhere', () => {
    expect(
      reading([
        ['a', 3, 1],
        ['b', 0, 0],
      ]),
    ).toMatchObject({ holds: false, value: 0 });
    // No consumer anywhere is queue-no-consumers' to say: nothing is stranded, nowhere to go.
    expect(
      reading([
        ['a', 0, 0],
        ['b', 10, 0],
      ]),
    ).toMatchObject({ holds: false, value: 0 });
  });
});
