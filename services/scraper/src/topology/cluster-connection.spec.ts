import { parseClusterConnections, topologyMembers } from './cluster-connection';

/** node2's `Topology` on the `cluster` profile (Artemis 2.40), as the broker wrote it. */
const DUMP =
  'topology on Topology@6a824823[owner=ClusterConnectionImpl@65894433[nodeUUID=339160af, connector=TransportConfiguration(name=artemis, factory=org-apache-activemq-artemis-core-remoting-impl-netty-NettyConnectorFactory)?port=63117&host=127-0-0-1, address=, server=ActiveMQServerImpl::name=node2]]:\n' +
  '\t2cac3d97 => TopologyMember[id=2cac3d97, connector=Pair[a=TransportConfiguration(name=artemis, factory=org-apache-activemq-artemis-core-remoting-impl-netty-NettyConnectorFactory)?port=63116&host=127-0-0-1, b=null], backupGroupName=null, scaleDownGroupName=null]\n' +
  '\t339160af => TopologyMember[id=339160af, connector=Pair[a=TransportConfiguration(name=artemis, factory=org-apache-activemq-artemis-core-remoting-impl-netty-NettyConnectorFactory)?port=63117&host=artemis-primary, b=TransportConfiguration(name=artemis, factory=org-apache-activemq-artemis-core-remoting-impl-netty-NettyConnectorFactory)?port=61617&host=artemis-backup], backupGroupName=null, scaleDownGroupName=null]\n' +
  '\tnodes=2\tmembers=2';

describe('a cluster connection as tier B reads it', () => {
  it('takes the members of the topology dump, live and backup, keeping a host name’s dashes', () => {
    expect(topologyMembers(DUMP)).toEqual([
      { brokerNodeId: '2cac3d97', live: '127.0.0.1:63116', backup: null },
      { brokerNodeId: '339160af', live: 'artemis-primary:63117', backup: 'artemis-backup:61617' },
    ]);
  });

  it('reads none on a broker that is not clustered, and fails on a read that failed', () => {
    expect(parseClusterConnections({ status: 404, error: 'InstanceNotFoundException' })).toEqual([]);
    expect(() => parseClusterConnections({ status: 500, error: 'boom' })).toThrow(
      'cluster connection read failed: boom',
    );
  });

  it('reads each connection, the members it is connected to by host:port', () => {
    const [connection] = parseClusterConnections({
      status: 200,
      value: {
        'org.apache.activemq.artemis:broker="node2",component=cluster-connections,name="my-cluster"': {
          Started: true,
          MaxHops: 0,
          NodeID: '339160af',
          Nodes: { '2cac3d97': '127.0.0.1/127.0.0.1:63116' },
          Topology: DUMP,
          MessageLoadBalancingType: 'ON_DEMAND',
          MessagesPendingAcknowledgement: 3,
          MessagesAcknowledged: 7,
        },
      },
    });
    expect(connection).toMatchObject({
      name: 'my-cluster',
      started: true,
      maxHops: 0,
      brokerNodeId: '339160af',
      loadBalancing: 'ON_DEMAND',
      connectedTo: { '2cac3d97': '127.0.0.1:63116' },
      messagesPendingAcknowledgement: 3,
      messagesAcknowledged: 7,
    });
    expect(connection.members).toHaveLength(2);
  });
});
