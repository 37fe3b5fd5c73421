import { count, flag, quotedKey, text } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

/** A member of a cluster connection's topology: a live node, and its backup when it has one. */
export interface TopologyMember {
  /** The broker's node id (a UUID), the same on a live node and its backup. */
  brokerNodeId: string;
  /** host:port of the live connector, as the topology gives it. */
  live: string | null;
  backup: string | null;
}

/** One cluster connection of one node, as a tier-B tick read it (docs/artemis.md, "Symmetric clusters"). */
export interface ClusterConnectionReading {
  name: string;
  started: boolean;
  /** 0: the nodes connect but share no bindings, so nothing is load-balanced or redistributed. */
  maxHops: number;
  /** The node id of the broker this connection belongs to. */
  brokerNodeId: string;
  loadBalancing: string | null;
  /** Every member the connection's topology holds, this node included. */
  members: TopologyMember[];
  /** The other members it is connected to: node id to host:port. */
  connectedTo: Record<string, string>;
  messagesPendingAcknowledgement: number | null;
  messagesAcknowledged: number | null;
}

const ATTRIBUTES = [
  'Started',
  'MaxHops',
  'NodeID',
  'Nodes',
  'Topology',
  'MessageLoadBalancingType',
  'MessagesPendingAcknowledgement',
  'MessagesAcknowledged',
];

/** A wildcard read of every cluster connection MBean: the third read of each tier-B request. */
export const CLUSTER_CONNECTION_REQUEST: JolokiaRequest = {
  type: 'read',
  mbean: 'org.apache.activemq.artemis:broker=*,component=cluster-connections,name=*',
  attribute: ATTRIBUTES,
};

/**
 * A node's cluster connections; none on a broker that is not clustered (the wildcard matches no
 * MBean: Jolokia answers 404). Throws when the read failed: the links are then unknown, not gone.
 */
export function parseClusterConnections(answer: JolokiaResponse | undefined): ClusterConnectionReading[] {
  if (answer?.status === 404) return [];
  if (!answer || answer.status !== 200)
    throw new Error(`cluster connection read failed: ${answer?.error ?? 'no answer'}`);
  const readings: ClusterConnectionReading[] = [];
  for (const [mbean, a] of Object.entries((answer.value ?? {}) as Record<string, Record<string, unknown>>)) {
    const name = quotedKey(mbean, 'name');
    const started = flag(a.Started);
    const maxHops = count(a.MaxHops);
    const brokerNodeId = text(a.NodeID);
    if (name === null || started === null || maxHops === null || brokerNodeId === null)
      throw new Error(`cluster connection ${name ?? mbean} could not be read`);
    const nodes = a.Nodes && typeof a.Nodes === 'object' ? (a.Nodes as Record<string, unknown>) : {};
    readings.push({
      name,
      started,
      maxHops,
      brokerNodeId,
      loadBalancing: text(a.MessageLoadBalancingType),
      members: topologyMembers(text(a.Topology) ?? ''),
      connectedTo: Object.fromEntries(
        Object.entries(nodes).flatMap(([id, at]) =>
          typeof at === 'string' ? [[id, at.replace(/^.*\//, '')]] : [],
        ),
      ),
      messagesPendingAcknowledgement: count(a.MessagesPendingAcknowledgement),
      messagesAcknowledged: count(a.MessagesAcknowledged),
    });
  }
  return readings;
}

const MEMBER = /^\s*(\S+) => TopologyMember\[id=[^,]*, connector=Pair\[a=(.*), b=(.*)\], backupGroupName=/;

/**
 * The members of a `Topology` dump, one line per node id: `<id> => TopologyMember[id=…,
 * connector=Pair[a=<live connector>, b=<backup connector or null>], …]`. The broker gives no
 * structured form of the backups (`listNetworkTopology` is the broker's, not the connection's).
 */
export function topologyMembers(dump: string): TopologyMember[] {
  const members: TopologyMember[] = [];
  for (const line of dump.split('\n')) {
    const match = MEMBER.exec(line);
    if (!match) continue;
    members.push({
      brokerNodeId: match[1],
      live: connectorAddress(match[2]),
      backup: connectorAddress(match[3]),
    });
  }
  return members;
}

/**
 * host:port of a `TransportConfiguration(…)?port=63116&host=127-0-0-1`. The dump writes a host's
 * dots as dashes; only an IPv4 address is written back, since a name may hold dashes of its own.
 */
function connectorAddress(connector: string): string | null {
  if (connector === 'null') return null;
  const port = /[?&]port=(\d+)/.exec(connector)?.[1];
  const host = /[?&]host=([^&,\]]+)/.exec(connector)?.[1];
  if (!host || !port) return null;
  return `${/^\d+-\d+-\d+-\d+$/.test(host) ? host.replace(/-/g, '.') : host}:${port}`;
}
