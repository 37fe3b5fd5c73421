import type { LiveListKind, LiveListPage } from '@artemis-studio/contracts';
import { RpcError } from '@artemis-studio/bus';
import type { JolokiaClient } from '../jolokia/jolokia-client';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { MAX_LIVE_LIST_DEPTH, NodeList, liveListRequest, mergePage, parseNodeList } from './live-list';

/**
 * Live consumers / sessions / connections of a cluster: fanned out over its live nodes through the
 * same client and call budget as polling, merged and paged, with every failed node stated.
 */
export async function readLiveList(
  cluster: ClusterNodes,
  jolokia: JolokiaClient,
  kind: LiveListKind,
  page: number,
  pageSize: number,
): Promise<LiveListPage> {
  if (page * pageSize > MAX_LIVE_LIST_DEPTH) {
    throw new RpcError(
      400,
      `page ${page} of ${pageSize} reaches past item ${MAX_LIVE_LIST_DEPTH}; narrow the search`,
    );
  }
  const nodes = cluster.liveNodes();
  const nodeErrors: { node: string; reason: string }[] = [];
  const lists: NodeList[] = [];
  const results = await Promise.all(
    nodes
      .map(async (node) => {
        const brokerName = cluster.brokerName(node.id);
        if (!brokerName) throw new Error('broker name not observed yet');
        const [answer] = await jolokia.bulk(cluster.jolokiaTarget(node), [
          liveListRequest(brokerName, kind, page, pageSize),
        ]);
        return parseNodeList(node.name, answer);
      })
      .map((p, i) =>
        p.then(
          (list) => ({ list }),
          (err: Error) => ({ error: { node: nodes[i].name, reason: err.message } }),
        ),
      ),
  );
  for (const result of results) {
    if ('list' in result) lists.push(result.list);
    else nodeErrors.push(result.error);
  }
  if (nodes.length === 0) nodeErrors.push({ node: '*', reason: 'no live node observed' });
  return mergePage(lists, nodeErrors, page, pageSize);
}
