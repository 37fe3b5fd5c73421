import type { BodyFilter, BodyScan, MaskingRules } from '@artemis-studio/contracts';
import { requiredAmqpEndpoint } from '../broker-actions/amqp-send';
import type { QueueHolder } from '../broker-actions/queue-holders';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { compileBodyFilter } from './body-filter';
import { fqqnOf } from './body-browse';
import { scanBodies, summedScans, type ScanBudget } from './body-scan';
import { BrowsingReceiver } from './browsing-receiver';

/**
 * What a job's scan may read, over every node holding the queue: it runs while the operator waits
 * for the job to start (or for its count), within the gateway's wait for the owner's answer. The
 * scan keeps every id it reads, to tell twins apart (about 100 bytes each): 250,000 of them stay
 * well within the scraper's 256 MiB beside its polling. A deeper queue is narrowed with the
 * broker's selector first; the answer says when the budget stopped the read.
 */
const JOB_SCAN_BUDGET: ScanBudget = { messages: 250_000, ms: 60_000 };

/** The ids a job by body filter selects on each node, and what its scan found. */
export interface JobMatches {
  /** Per node name, the broker's `AMQUserID` of each match a selector can name alone. */
  ids: Map<string, string[]>;
  scan: BodyScan;
}

/**
 * A job's body filter applied (ADR-0038): each node holding the queue read once over AMQP, the
 * broker's selector narrowing first, the matches' ids kept (not their bodies). The budget is
 * shared by the nodes, read one after the other.
 */
export async function jobMatches(
  cluster: ClusterNodes,
  holders: QueueHolder[],
  queue: string,
  selector: string,
  filter: BodyFilter,
  masking: MaskingRules | undefined,
  budget: ScanBudget = JOB_SCAN_BUDGET,
): Promise<JobMatches> {
  const test = compileBodyFilter(filter, masking);
  const endpoints = holders.map((h) =>
    requiredAmqpEndpoint(cluster, h.node, 'a body filter reads the queue'),
  );
  const started = Date.now();
  const ids = new Map<string, string[]>();
  let scan: BodyScan | null = null;
  for (const [i, holder] of holders.entries()) {
    const left: ScanBudget = {
      messages: budget.messages - (scan?.scanned ?? 0),
      ms: budget.ms - (Date.now() - started),
    };
    const receiver = await BrowsingReceiver.open(endpoints[i], fqqnOf(holder, queue), selector);
    const found = await scanBodies((max) => receiver.next(max), test, {
      budget: left,
      keep: () => null,
    }).finally(() => receiver.close());
    ids.set(
      holder.node.name,
      found.matches.flatMap((m) => (m.userId === null ? [] : [m.userId])),
    );
    scan = scan ? summedScans(scan, found.scan) : found.scan;
  }
  return { ids, scan: scan! };
}
