import type { StartMessageJobRequest } from '@artemis-studio/contracts';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';
import type { QueueHolder } from '../broker-actions/queue-holders';
import { parseGroups } from './dead-letter-groups';
import {
  batchCount,
  chosenCall,
  filterBatch,
  groupedCount,
  retriesEachToOrigin,
  selectorOf,
} from './message-job-calls';
import { emptyTrash } from './trash-queue';
import { matchedSelectors } from '../body-filters/body-scan';

/** At most this many chosen messages go to the broker in one call (each scans the queue in memory). */
const CHOSEN_PER_CALL = 100;
/** At most this many matches of a body filter are named in one call's selector (it parses it afresh). */
const MATCHED_PER_CALL = 500;

/** What one batch's answers did on its node. */
type BatchOutcome =
  /** The broker refused the batch before it did anything: nothing is counted. */
  | { refused: string }
  | {
      processed: number;
      /** Chosen messages the broker no longer had (not in memory, or taken meanwhile). */
      notReached: number;
      /** The broker refused part of it: counted, then the job fails. */
      error: string | null;
      /** No batch follows. */
      last: boolean;
    };

/** One call of a job on one node. */
export interface Batch {
  requests: JolokiaRequest[];
  /** When the call's outcome is unknown (no answer), at most this many more may have been processed. */
  inFlight: number;
  outcome(answers: JolokiaResponse[]): BatchOutcome;
}

/** The job's parts of the plan its batches are made from. */
interface BatchPlan {
  job: StartMessageJobRequest;
  selector: string;
  target: string | null;
  /** A delete by filter's trash queue (trash-queue.ts). */
  trash: string | null;
}

/**
 * Batches by filter on one node, until the broker finds fewer than a batch. A delete's batch moves
 * its messages into the job's trash queue and empties it in the same call (trash-queue.ts).
 */
export function* filteredBatches(plan: BatchPlan, holder: QueueHolder): Generator<Batch> {
  const { batchSize } = plan.job;
  const trash = plan.job.kind === 'delete' ? plan.trash : null;
  const move = filterBatch(holder.found.mbean, plan.job, plan.selector, trash ?? plan.target);
  for (;;)
    yield {
      requests: trash ? [move, emptyTrash(holder.broker, trash)] : [move],
      inFlight: batchSize,
      outcome: ([answer, emptied]) => {
        const done = batchCount(answer);
        if ('error' in done) return { refused: done.error };
        const stuck =
          trash && emptied.status !== 200
            ? `the last ${done.processed} matching messages were moved to ${trash}, and wait there: ` +
              `emptying it failed (${emptied.error ?? `status ${emptied.status}`})`
            : null;
        // Messages left in the trash queue are not deleted: not counted as such, said in the error.
        return {
          processed: stuck ? 0 : done.processed,
          notReached: 0,
          error: stuck,
          last: done.processed < batchSize,
        };
      },
    };
}

/** Chosen messages by id, a call of at most CHOSEN_PER_CALL at a time; `false` is "not reached". */
export function* chosenBatches(plan: BatchPlan, holder: QueueHolder): Generator<Batch> {
  const ids = plan.job.messageIds ?? [];
  const perCall = Math.min(plan.job.batchSize, CHOSEN_PER_CALL);
  for (let at = 0; at < ids.length; at += perCall) {
    const chunk = ids.slice(at, at + perCall);
    yield {
      requests: chunk.map((id) => chosenCall(holder.found.mbean, plan.job.kind, id, plan.target)),
      inFlight: chunk.length,
      outcome: (answers) => {
        const refused = answers.find((a) => a.status !== 200);
        return {
          processed: answers.filter((a) => a.status === 200 && a.value === true).length,
          notReached: answers.filter((a) => a.status === 200 && a.value !== true).length,
          error: refused ? (refused.error ?? `the broker answered status ${refused.status}`) : null,
          last: at + perCall >= ids.length,
        };
      },
    };
  }
}

/**
 * A retry by filter (or of everything) from a dead-letter or expiry queue, each message back to the
 * queue it came from. The broker counts the matching messages by origin (`countMessages(filter,
 * '_AMQ_ORIG_QUEUE')`, within its browse limit); each call then moves a batch of the biggest group
 * into its queue, as a group's retry does, and asks for the groups again in the same call, until
 * none is left. Messages without an origin are not matched (the job's selector leaves them out).
 */
export function* retriesByOrigin(plan: BatchPlan, holder: QueueHolder): Generator<Batch> {
  const { batchSize } = plan.job;
  const regroup = groupedCount(holder.found.mbean, plan.selector);
  let groups: { origin: string; count: number }[] = [];
  /** Reads the groups the broker counted; the broker's words when it refused. */
  const regrouped = (answer: JolokiaResponse): string | null => {
    try {
      groups = parseGroups(answer).flatMap((g) => (g.origin === null ? [] : [{ ...g, origin: g.origin }]));
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  };
  yield {
    requests: [regroup],
    inFlight: 0,
    outcome: ([answer]) => {
      const refused = regrouped(answer);
      if (refused) return { refused };
      return { processed: 0, notReached: 0, error: null, last: groups.length === 0 };
    },
  };
  while (groups.length > 0) {
    const { origin, count: before } = groups[0];
    const move = filterBatch(
      holder.found.mbean,
      plan.job,
      selectorOf({ filter: plan.selector, origin }),
      origin,
    );
    yield {
      requests: [move, regroup],
      inFlight: batchSize,
      outcome: ([moved, answer]) => {
        const done = batchCount(moved);
        if ('error' in done) return { refused: `retrying to ${origin}: ${done.error}` };
        const refused = regrouped(answer);
        const stuck =
          done.processed === 0 && groups.some((g) => g.origin === origin)
            ? `the broker moved none of the ${before} messages of ${origin} it counted`
            : null;
        const error = refused ?? stuck;
        return {
          processed: done.processed,
          notReached: 0,
          error,
          last: error !== null || groups.length === 0,
        };
      },
    };
  }
}

/**
 * A job by body filter (ADR-0038): the matches its scan found on the node, named by their ids a
 * call at a time (the operator's selector narrowing too), moved, retried or deleted as a job by
 * filter does. What the broker no longer had (consumed since the scan) is counted as not reached.
 */
export function* matchedBatches(plan: BatchPlan, holder: QueueHolder, ids: string[]): Generator<Batch> {
  const perCall = Math.min(plan.job.batchSize, MATCHED_PER_CALL);
  const selectors = matchedSelectors(plan.selector, ids, perCall);
  for (const [n, selector] of selectors.entries()) {
    const named = Math.min(perCall, ids.length - n * perCall);
    // One more than it names, so the broker's first answer ends the call's batches.
    const narrowed = { ...plan, selector, job: { ...plan.job, batchSize: named + 1 } };
    const batches = retriesEachToOrigin(plan.job)
      ? retriesByOrigin(narrowed, holder)
      : filteredBatches(narrowed, holder);
    yield* tallied(batches, named, n === selectors.length - 1);
  }
}

/**
 * The batches of one call's named matches: at their end, those the broker did not process are
 * counted as not reached, and only the last call's end is the job's.
 */
function* tallied(batches: Generator<Batch>, named: number, final: boolean): Generator<Batch> {
  let processed = 0;
  for (const batch of batches) {
    let last = false;
    yield {
      ...batch,
      inFlight: Math.min(batch.inFlight, named),
      outcome: (answers) => {
        const outcome = batch.outcome(answers);
        if ('refused' in outcome) return outcome;
        processed += outcome.processed;
        last = outcome.last;
        if (!outcome.last || outcome.error) return outcome;
        return { ...outcome, notReached: Math.max(0, named - processed), last: final };
      },
    };
    if (last) return;
  }
}
