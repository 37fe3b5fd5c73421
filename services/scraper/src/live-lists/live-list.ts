import type { LiveListKind, LiveListPage } from '@artemis-studio/contracts';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

/** Deepest item a paged live read may reach: each node is asked for up to this many. */
export const MAX_LIVE_LIST_DEPTH = 10_000;

const OPERATIONS: Record<LiveListKind, string> = {
  consumers: 'listConsumers(java.lang.String,int,int)',
  sessions: 'listSessions(java.lang.String,int,int)',
  connections: 'listConnections(java.lang.String,int,int)',
};

/**
 * The paged list operation for one node. Every node is asked for its first `page * pageSize`
 * items: enough to cut any page out of the node-by-node concatenation, given each node's count.
 */
export function liveListRequest(
  brokerName: string,
  kind: LiveListKind,
  page: number,
  pageSize: number,
): JolokiaRequest {
  return {
    type: 'exec',
    mbean: `org.apache.activemq.artemis:broker="${brokerName}"`,
    operation: OPERATIONS[kind],
    arguments: ['', 1, page * pageSize],
  };
}

export interface NodeList {
  node: string;
  items: Record<string, unknown>[];
  count: number;
}

/** The operation answers a JSON string inside `value`: `{"data":[...],"count":N}`. */
export function parseNodeList(node: string, answer: JolokiaResponse | undefined): NodeList {
  if (!answer || answer.status !== 200) throw new Error(answer?.error ?? 'no answer');
  const parsed = JSON.parse(String(answer.value)) as { data?: Record<string, unknown>[]; count?: number };
  const items = (parsed.data ?? []).map((item) => ({ ...item, node }));
  return { node, items, count: Number(parsed.count ?? items.length) };
}

/** Cuts one page out of the node-by-node concatenation; failed nodes are stated, not hidden. */
export function mergePage(
  lists: NodeList[],
  nodeErrors: { node: string; reason: string }[],
  page: number,
  pageSize: number,
): LiveListPage {
  const start = (page - 1) * pageSize;
  const end = start + pageSize;
  const items: Record<string, unknown>[] = [];
  let offset = 0;
  for (const list of lists) {
    const from = Math.max(start - offset, 0);
    const to = Math.min(end - offset, list.count);
    if (to > from) items.push(...list.items.slice(from, to));
    offset += list.count;
  }
  return { items, total: offset, page, pageSize, partial: nodeErrors.length > 0, nodeErrors };
}
