import {
  bodyFilterOf,
  type BodyScan,
  type QueueBrowseCall,
  type QueueMessagesPage,
} from '@artemis-studio/contracts';
import { requiredAmqpEndpoint } from '../broker-actions/amqp-send';
import { browseCalls, pageOf } from '../broker-actions/queue-browse';
import { chosenHolder, RememberedHolders, type QueueHolder } from '../broker-actions/queue-holders';
import type { ActionJolokia } from '../broker-actions/queue-actions';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import { compileBodyFilter } from './body-filter';
import { matchedSelectors, scanBodies, type ScanBudget } from './body-scan';
import { BrowsingReceiver } from './browsing-receiver';

/** What one page of a body-filtered browse may read: it answers an HTTP request. */
const BROWSE_SCAN_BUDGET: ScanBudget = { messages: 100_000, ms: 20_000 };

/**
 * A page of a queue's messages whose bodies match a filter (ADR-0038). The owner reads the queue
 * once from its head over AMQP (the broker's selector narrowing first) until the page is full,
 * then asks the broker's management for exactly those messages by their ids: the page holds the
 * broker's ids and shows bodies as every browse does, so each action on a message works on it.
 */
export class BodyBrowser {
  private readonly remembered = new RememberedHolders();

  constructor(
    private readonly jolokia: ActionJolokia,
    private readonly lanes: BrokerLanes,
    private readonly budget: ScanBudget = BROWSE_SCAN_BUDGET,
  ) {}

  async page(cluster: ClusterNodes, call: QueueBrowseCall): Promise<QueueMessagesPage> {
    const filter = bodyFilterOf(call)!;
    const test = compileBodyFilter(filter, call.masking);
    const holders = await this.remembered.holders(this.jolokia, cluster, call.queue);
    const chosen = chosenHolder(holders, call.queue, call.node);
    const endpoint = requiredAmqpEndpoint(cluster, chosen.node, 'a body filter reads the queue');
    const selector = call.filter?.trim() ?? '';
    const receiver = await BrowsingReceiver.open(endpoint, fqqnOf(chosen, call.queue), selector);
    const { matches, scan } = await scanBodies((max) => receiver.next(max), test, {
      budget: this.budget,
      // One more than the page, to know whether another follows.
      enough: call.page * call.pageSize + 1,
      perRead: 100,
      // Only their ids: the page's bodies come from the broker's browse, and a deep page keeps many.
      keep: () => null,
    }).finally(() => receiver.close());
    const onPage = matches.slice((call.page - 1) * call.pageSize, call.page * call.pageSize);
    const ids = onPage.flatMap((m) => (m.userId === null ? [] : [m.userId]));
    const page = await this.messagesByIds(holders, chosen, call, selector, ids);
    return { ...page, bodyFilter: filter, bodyScan: scan, matched: matchedOf(scan) };
  }

  /** The matched messages as the broker's browse shows them, the page's other figures with them. */
  private async messagesByIds(
    holders: QueueHolder[],
    chosen: QueueHolder,
    call: QueueBrowseCall,
    selector: string,
    ids: string[],
  ): Promise<QueueMessagesPage> {
    // With nothing to name, a selector no message matches still reads the depth and the settings.
    const [byIds] = ids.length > 0 ? matchedSelectors(selector, ids) : ['1 = 0'];
    const idCall = { ...call, page: 1, pageSize: Math.max(1, ids.length), filter: byIds };
    const answers = await this.lanes.run(chosen.target.nodeKey, () =>
      this.jolokia.bulk(chosen.target, browseCalls(chosen.broker, chosen.found, idCall), MANAGEMENT_CALL),
    );
    const page = pageOf(idCall, { holders, chosen, answers });
    return { ...page, page: call.page, pageSize: call.pageSize, filter: selector || null };
  }
}

/** The queue as `address::queue`, so only that queue is read whatever else its address holds. */
export const fqqnOf = (holder: QueueHolder, queue: string): string =>
  `${holder.found.address ?? queue}::${queue}`;

/** What matched, counted by the owner: a lower bound when the scan stopped before the end. */
const matchedOf = (scan: BodyScan) => ({ count: scan.matched, atLeast: !scan.complete });
