import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import { addressMbean, brokerMbean, count, quoted } from '../jolokia/attribute-values';
import type { QueueHolder } from '../broker-actions/queue-holders';

/**
 * A delete by filter in batches (issue 60). The broker's `removeMessages(flushLimit, filter)` takes
 * every matching message in one call that cannot be stopped; `moveMessages` takes a count. So a
 * batch moves at most `batchSize` matching messages into a trash queue of the job's own and, in
 * the same call, empties it: the count is the broker's, the job stops between batches, and a batch
 * whose emptying failed (or a replica that died between the two) leaves its messages in the trash
 * queue, where they can be moved back, rather than lost or not without a word.
 */
export const trashQueueOf = (jobId: string): string => `studio.trash.${jobId}`;

const trashMbean = (broker: string, trash: string): string =>
  `${addressMbean(broker, trash)},subcomponent=queues,routing-type="anycast",queue=${quoted(trash)}`;

/** Empties the trash queue: what the batch moved there, and nothing else ever goes there. */
export const emptyTrash = (broker: string, trash: string): JolokiaRequest => ({
  type: 'exec',
  mbean: trashMbean(broker, trash),
  operation: 'removeAllMessages()',
  arguments: [],
});

/** How many messages wait in the trash queue (a batch that could not empty it). */
const trashDepth = (broker: string, trash: string): JolokiaRequest => ({
  type: 'read',
  mbean: trashMbean(broker, trash),
  attribute: 'MessageCount',
});

/** Removes the trash queue and its address, once it is empty. */
const dropTrash = (broker: string, trash: string): JolokiaRequest => ({
  type: 'exec',
  mbean: brokerMbean(broker),
  operation: 'destroyQueue(java.lang.String,boolean,boolean)',
  arguments: [trash, true, true],
});

/** Whether the trash queue is empty, as `trashDepth` answered; null when it did not say. */
function trashEmpty(answer: JolokiaResponse | undefined): boolean | null {
  if (answer?.status !== 200) return null;
  const n = count(answer.value);
  return n === null ? null : n === 0;
}

/**
 * At the job's end, the trash queue is removed on each node where it is empty; one a batch could
 * not empty stays there with its messages, as the job's error says (`stays` is told of it).
 */
export async function dropEmptyTrash(
  holders: QueueHolder[],
  trash: string,
  read: (holder: QueueHolder, request: JolokiaRequest) => Promise<JolokiaResponse | undefined>,
  stays: (holder: QueueHolder) => void,
): Promise<void> {
  for (const holder of holders) {
    const empty = trashEmpty(await read(holder, trashDepth(holder.broker, trash)));
    const dropped = empty ? await read(holder, dropTrash(holder.broker, trash)) : undefined;
    if (dropped?.status !== 200) stays(holder);
  }
}
