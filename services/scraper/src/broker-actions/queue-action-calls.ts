import type { NodeActionResult, QueueAction } from '@artemis-studio/contracts';
import { brokerMbean, count, flag, quoted, text } from '../jolokia/attribute-values';
import type { JolokiaRequest, JolokiaResponse } from '../jolokia/jolokia-client';

const STATE_ATTRIBUTES = ['MessageCount', 'ConsumerCount', 'Paused', 'Address'];

/**
 * Every queue MBean of that name on the broker, whatever its address and routing type, with its
 * state and any `extra` attributes.
 */
export const findQueue = (broker: string, queue: string, extra: string[] = []): JolokiaRequest => ({
  type: 'read',
  mbean: `${brokerMbean(broker)},component=addresses,address=*,subcomponent=queues,routing-type=*,queue=${quoted(queue)}`,
  attribute: [...STATE_ATTRIBUTES, ...extra],
});

export interface QueueState {
  mbean: string;
  address: string | null;
  depth: number | null;
  consumers: number | null;
  paused: boolean | null;
}

/**
 * The queue as `findQueue` found it, or null when the broker has no queue of that name. A failed
 * read is thrown: it says nothing about whether the queue is there.
 */
export function parseFound(answer: JolokiaResponse): QueueState | null {
  if (answer.status === 404) return null;
  if (answer.status !== 200) throw new Error(answer.error ?? `queue lookup failed (status ${answer.status})`);
  const found = Object.entries((answer.value ?? {}) as Record<string, Record<string, unknown>>);
  if (found.length === 0) return null;
  const [mbean, attributes] = found[0];
  return stateOf(mbean, attributes);
}

function stateOf(mbean: string, attributes: Record<string, unknown>): QueueState {
  return {
    mbean,
    address: text(attributes.Address),
    depth: count(attributes.MessageCount),
    consumers: count(attributes.ConsumerCount),
    paused: flag(attributes.Paused),
  };
}

/** The operation that carries out the action on the queue found on a broker. */
export function actionCall(
  broker: string,
  found: QueueState,
  action: QueueAction,
  queue: string,
  persist: boolean,
): JolokiaRequest {
  switch (action) {
    case 'pause':
      return { type: 'exec', mbean: found.mbean, operation: 'pause(boolean)', arguments: [persist] };
    case 'resume':
      return { type: 'exec', mbean: found.mbean, operation: 'resume()', arguments: [] };
    case 'purge':
      // Commits in batches of the broker's flush limit, reading page files too.
      return { type: 'exec', mbean: found.mbean, operation: 'removeAllMessages()', arguments: [] };
    case 'retry':
      // Each message back to the queue it was dead-lettered or expired from; the broker's count.
      return { type: 'exec', mbean: found.mbean, operation: 'retryMessages()', arguments: [] };
    case 'delete':
      // removeConsumers false: a queue with consumers is refused by the broker, not cut from under them.
      return {
        type: 'exec',
        mbean: brokerMbean(broker),
        operation: 'destroyQueue(java.lang.String,boolean)',
        arguments: [queue, false],
      };
  }
}

/** The queue's state read again right after the action, in the same bulk call. */
export const readState = (found: QueueState): JolokiaRequest => ({
  type: 'read',
  mbean: found.mbean,
  attribute: STATE_ATTRIBUTES,
});

/** The broker's management lock was held: AMQ229245 "Management controller is busy". */
export const isBusy = (error: string | undefined): boolean =>
  /AMQ229245|controller is busy/i.test(error ?? '');

/** One node's result from the answers to `[actionCall, readState]`. */
export function nodeResult(
  node: string,
  action: QueueAction,
  before: QueueState,
  [done, after]: JolokiaResponse[],
): NodeActionResult {
  const base = {
    node,
    depthBefore: before.depth,
    consumers: before.consumers,
    paused: before.paused,
    busy: false,
    reached: true,
  };
  if (done.status !== 200) {
    const error = done.error ?? `the broker answered status ${done.status}`;
    return {
      ...base,
      outcome: 'failed',
      messages: null,
      depthAfter: before.depth,
      error,
      busy: isBusy(error),
    };
  }
  const now =
    after?.status === 200 ? stateOf(before.mbean, (after.value ?? {}) as Record<string, unknown>) : null;
  const removed =
    action === 'purge' || action === 'retry' ? count(done.value) : action === 'delete' ? before.depth : null;
  return {
    ...base,
    outcome: 'done',
    messages: removed,
    depthAfter: action === 'delete' ? 0 : (now?.depth ?? null),
    consumers: now?.consumers ?? (action === 'delete' ? 0 : before.consumers),
    paused: now?.paused ?? null,
    error: null,
  };
}

/** A dry run's result: what the action would touch, read from the broker now. */
export function countedResult(node: string, action: QueueAction, before: QueueState): NodeActionResult {
  return {
    node,
    outcome: 'counted',
    messages: action === 'purge' || action === 'delete' || action === 'retry' ? before.depth : null,
    depthBefore: before.depth,
    depthAfter: before.depth,
    consumers: before.consumers,
    paused: before.paused,
    error: null,
    busy: false,
    reached: true,
  };
}

export const absentResult = (node: string): NodeActionResult => ({
  node,
  outcome: 'absent',
  messages: null,
  depthBefore: null,
  depthAfter: null,
  consumers: null,
  paused: null,
  error: null,
  busy: false,
  reached: true,
});

/** The node could not be asked (unreachable, no answer, no broker name yet). */
export const unreachedResult = (node: string, error: string): NodeActionResult => ({
  ...absentResult(node),
  outcome: 'failed',
  error,
  reached: false,
});

/** The broker answered with an error: its words, and whether it was its busy lock. */
export const refusedResult = (node: string, error: string): NodeActionResult => ({
  ...absentResult(node),
  outcome: 'failed',
  error,
  busy: isBusy(error),
});
