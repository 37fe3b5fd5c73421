import { observedQueue } from '../queues/queue-observation.fixture';
import { mirrorBacklogOf, parseBrokerConnections } from './broker-connection';

// MBean names as Artemis 2.40 registers them on the `cluster` profile with a federation and a
// mirror over node1's connection `to-node2` (docs/artemis.md, "AMQP federation and mirrors").
const PEER = 'f9c6adf4-f16e-11f1-b35d-02fc00000001';
const own = 'org.apache.activemq.artemis:broker="node1",component=broker-connections';
const remote = `org.apache.activemq.artemis:broker="node2",component=remote-broker-connections`;
const answer = (value: Record<string, unknown>) => ({ status: 200, value });

describe('a node’s broker connections as one wildcard read gives them', () => {
  it('read its own connection with its federation’s totals, passing over the policies and links', () => {
    const read = parseBrokerConnections(
      answer({
        [`${own},name="to-node2"`]: { Started: true, Connected: false },
        [`${own},federationName="to-node2",name="to-node2",serviceCatagory=federations`]: {
          MessagesReceived: 10,
          MessagesSent: 0,
        },
        [`${own},federationName="to-node2",name="to-node2",policyName="fed-queues",policyType="queue-federation",serviceCatagory=federations`]:
          { MessagesReceived: 10 },
        [`${own},federationName="to-node2",fqqn="fed.q::fed.q",linkType=consumers,name="to-node2",policyName="fed-queues",policyType="queue-federation",serviceCatagory=federations`]:
          { MessagesReceived: 10 },
        [`${own},name="plain"`]: { Started: false, Connected: false },
      }),
    );
    expect(read).toEqual([
      {
        name: 'to-node2',
        direction: 'outgoing',
        started: true,
        connected: false,
        peerBrokerNodeId: null,
        federation: { messagesSent: 0, messagesReceived: 10 },
      },
      expect.objectContaining({ name: 'plain', started: false, federation: null }),
    ]);
  });

  it('read a peer’s connection attached to this node as incoming, named with its peer', () => {
    const read = parseBrokerConnections(
      answer({
        [`${remote},name="to-node2",nodeId="${PEER}"`]: { NodeId: PEER },
        [`${remote},federationName="to-node2",name="to-node2",nodeId="${PEER}",serviceCatagory=federations`]:
          {
            MessagesReceived: 0,
            MessagesSent: 10,
          },
      }),
    );
    expect(read).toEqual([
      {
        name: 'to-node2',
        direction: 'incoming',
        started: true,
        connected: true,
        peerBrokerNodeId: PEER,
        federation: { messagesSent: 10, messagesReceived: 0 },
      },
    ]);
  });

  it('know none on a broker without (404), and nothing when the read failed', () => {
    expect(parseBrokerConnections({ status: 404, value: null })).toEqual([]);
    expect(() => parseBrokerConnections({ status: 500, value: null, error: 'boom' })).toThrow(/boom/);
    expect(() => parseBrokerConnections(answer({ [`${own},name="x"`]: { Started: 'ERROR: …' } }))).toThrow(
      /could not be read/,
    );
  });

  it('take a mirror’s backlog from the queue the broker keeps for it', () => {
    const [connection] = parseBrokerConnections(
      answer({ [`${own},name="dc2"`]: { Started: true, Connected: true } }),
    );
    const at = new Date('2026-12-06T10:00:00Z');
    const mirror = {
      ...observedQueue('$ACTIVEMQ_ARTEMIS_MIRROR_dc2', { messageCount: 7 }),
      firstMessageAt: at,
    };
    expect(mirrorBacklogOf(connection, [observedQueue('orders', { messageCount: 3 }), mirror])).toEqual({
      queue: '$ACTIVEMQ_ARTEMIS_MIRROR_dc2',
      messages: 7,
      oldestMessageAt: at,
    });
    expect(mirrorBacklogOf(connection, [observedQueue('orders', { messageCount: 3 })])).toBeNull();
  });
});
