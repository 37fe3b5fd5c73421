import {
  bodyFilterOf,
  originSelector,
  type BodyFilter,
  type BodyScan,
  type DeadLetterGroup,
  type DeadLetterGroups,
  type DeadLetterGroupsCall,
} from '@artemis-studio/contracts';
import type { Message } from 'rhea-promise';
import { count, text } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { MANAGEMENT_CALL, type BrokerLanes } from '../jolokia/broker-lanes';
import { findQueue, parseFound } from '../broker-actions/queue-action-calls';
import type { ActionJolokia } from '../broker-actions/queue-actions';
import { addressSettings, managementRefusal, settingsLimit } from '../broker-actions/queue-browse';
import { chosenHolder, queueHolders, readOf, type QueueHolder } from '../broker-actions/queue-holders';
import { requiredAmqpEndpoint } from '../broker-actions/amqp-send';
import { compileBodyFilter } from '../body-filters/body-filter';
import { fqqnOf } from '../body-filters/body-browse';
import { scanBodies } from '../body-filters/body-scan';
import { BrowsingReceiver } from '../body-filters/browsing-receiver';
import { groupedCount } from './message-job-calls';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';

/** The key `countMessages(filter, groupBy)` gives messages without the property. */
const NO_ORIGIN = 'null';
/** More groups than this are not looked into one by one (their counts are still given). */
const GROUPS_DESCRIBED = 50;
/** What grouping by a body filter may read: it answers an HTTP request, as a browse page does. */
const GROUPING_SCAN_BUDGET = { messages: 100_000, ms: 20_000 };

/** The queue a message read over AMQP was dead-lettered from: the broker's annotation (or property). */
function originOf(message: Message): string | null {
  const annotated = message.message_annotations?.['x-opt-ORIG-QUEUE'];
  const property = message.application_properties?._AMQ_ORIG_QUEUE;
  const origin = annotated ?? property;
  return typeof origin === 'string' ? origin : null;
}

/** The grouped count's JSON (`{"orders": 120, "null": 3}`), biggest group first. */
export function parseGroups(answer: JolokiaResponse): { origin: string | null; count: number }[] {
  if (answer.status !== 200 || typeof answer.value !== 'string')
    throw managementRefusal(answer.error, 'the grouped count');
  const groups = JSON.parse(answer.value) as Record<string, unknown>;
  return Object.entries(groups)
    .map(([origin, n]) => ({ origin: origin === NO_ORIGIN ? null : origin, count: count(n) ?? 0 }))
    .sort((a, b) => b.count - a.count || String(a.origin).localeCompare(String(b.origin)));
}

/** The first message of a group as `browse(1, 1, filter)` gave it: its origin address and send time. */
export function firstOfGroup(answer: JolokiaResponse | undefined): {
  originAddress: string | null;
  oldest: string | null;
} {
  const first =
    answer?.status === 200 ? (answer.value as Record<string, unknown>[] | undefined)?.[0] : undefined;
  const strings = (first?.StringProperties ?? {}) as Record<string, unknown>;
  const sent = count(first?.timestamp);
  return {
    // An AMQP message shows the broker's own properties under `extraProperties.`; a Core one bare.
    originAddress: text(strings._AMQ_ORIG_ADDRESS) ?? text(strings['extraProperties._AMQ_ORIG_ADDRESS']),
    oldest: sent && sent > 0 ? new Date(sent).toISOString() : null,
  };
}

/**
 * A dead-letter (or expiry) queue's messages grouped by the queue they came from, as the broker
 * groups them: `countMessages("", "_AMQ_ORIG_QUEUE")` looks at no more than its browse limit, so
 * past it each count is a lower bound, and said to be. Each group's first message gives its
 * original address and how long it has waited; each origin is looked up, since a retry to a queue
 * that is gone would be refused.
 */
export class DeadLetterGroupsReader {
  constructor(
    private readonly jolokia: ActionJolokia,
    private readonly lanes: BrokerLanes,
  ) {}

  async read(cluster: ClusterNodes, call: DeadLetterGroupsCall): Promise<DeadLetterGroups> {
    const holders = await queueHolders(this.jolokia, cluster, call.queue);
    const chosen = chosenHolder(holders, call.queue, call.node);
    const { target, broker, found } = chosen;
    const body = bodyFilterOf(call);
    const byBody = body ? await this.groupedByBody(cluster, chosen, call, body) : null;
    const [grouped, settings] = await this.lanes.run(target.nodeKey, () =>
      this.jolokia.bulk(
        target,
        [
          // Grouped by the body filter's read instead, the broker's count is not asked for.
          byBody
            ? { type: 'read', mbean: found.mbean, attribute: 'MessageCount' }
            : groupedCount(found.mbean, ''),
          addressSettings(broker, found.address ?? call.queue),
        ],
        MANAGEMENT_CALL,
      ),
    );
    const counts = byBody?.counts ?? parseGroups(grouped);
    const scanned = byBody?.scan.scanned ?? counts.reduce((sum, g) => sum + g.count, 0);
    const described = counts.slice(0, GROUPS_DESCRIBED);
    const details: JolokiaRequest[] = described.flatMap((g) => [
      {
        type: 'exec' as const,
        mbean: found.mbean,
        operation: 'browse(int,int,java.lang.String)',
        arguments: [1, 1, originSelector(g.origin)],
      },
      ...(g.origin === null ? [] : [findQueue(broker, g.origin)]),
    ]);
    const answers = details.length
      ? await this.lanes.run(target.nodeKey, () => this.jolokia.bulk(target, details, MANAGEMENT_CALL))
      : [];
    const partial = byBody ? !byBody.scan.complete : found.depth === null || found.depth > scanned;
    let at = 0;
    const groups: DeadLetterGroup[] = counts.map((g, i) => {
      const first =
        i < described.length ? firstOfGroup(answers[at++]) : { originAddress: null, oldest: null };
      const lookup = i < described.length && g.origin !== null ? answers[at++] : undefined;
      return {
        originQueue: g.origin,
        originAddress: first.originAddress,
        messages: { count: g.count, atLeast: partial },
        oldest: first.oldest,
        originExists: lookup !== undefined && lookup.status === 200 && parseFound(lookup) !== null,
      };
    });
    return {
      ...readOf(call, chosen, holders),
      depth: found.depth,
      scanned,
      browseLimit: settingsLimit(settings),
      groups,
      bodyFilter: body,
      bodyScan: byBody?.scan ?? null,
    };
  }

  /**
   * The matches of a body filter counted by origin (ADR-0038): the queue read once over AMQP, each
   * matching message's origin taken from the broker's annotation. Counted by Studio, not the
   * broker: not capped by the browse limit, only by the read's budget.
   */
  private async groupedByBody(
    cluster: ClusterNodes,
    chosen: QueueHolder,
    call: DeadLetterGroupsCall,
    body: BodyFilter,
  ): Promise<{ counts: { origin: string | null; count: number }[]; scan: BodyScan }> {
    const test = compileBodyFilter(body, call.masking);
    const endpoint = requiredAmqpEndpoint(cluster, chosen.node, 'a body filter reads the queue');
    const receiver = await BrowsingReceiver.open(endpoint, fqqnOf(chosen, call.queue), '');
    const { matches, scan } = await scanBodies((max) => receiver.next(max), test, {
      budget: GROUPING_SCAN_BUDGET,
      keep: originOf,
    }).finally(() => receiver.close());
    const byOrigin = new Map<string | null, number>();
    for (const { message: origin } of matches) byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + 1);
    const counts = [...byOrigin].map(([origin, count]) => ({ origin, count }));
    counts.sort((a, b) => b.count - a.count || String(a.origin).localeCompare(String(b.origin)));
    return { counts, scan };
  }
}
