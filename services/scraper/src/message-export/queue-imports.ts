import { RpcError } from '@artemis-studio/bus';
import { OWNER_FAILURES, type QueueImportCall, type QueueImportPart } from '@artemis-studio/contracts';
import { openAmqpConnection, requiredAmqpEndpoint } from '../broker-actions/amqp-send';
import type { ActionJolokia } from '../broker-actions/queue-actions';
import { chosenHolder, queueHolders } from '../broker-actions/queue-holders';
import type { ClusterNodes } from '../cluster-parts/owned-cluster';
import { importedMessage } from './imported-message';

/** How long the broker may take to accept one message. */
const SEND_TIMEOUT_SECONDS = 10;

/**
 * One part of an import (issue 60): its messages sent in order to the queue on one node, over a
 * connection of the owner's own, each awaited until the broker accepted it. A part with no message
 * only finds the node (a dry run). A refusal says how many of the part went before it.
 */
export async function importPart(
  jolokia: ActionJolokia,
  cluster: ClusterNodes,
  call: QueueImportCall,
): Promise<QueueImportPart> {
  const holder = chosenHolder(await queueHolders(jolokia, cluster, call.queue), call.queue, call.node);
  const node = holder.node.name;
  const endpoint = requiredAmqpEndpoint(cluster, holder.node, 'an import sends');
  if (call.messages.length === 0) return { node, sent: 0 };
  let sent = 0;
  const connection = await openAmqpConnection(endpoint, SEND_TIMEOUT_SECONDS);
  try {
    const sender = await connection.createAwaitableSender({
      target: { address: `${holder.found.address ?? call.queue}::${call.queue}` },
    });
    for (const message of call.messages) {
      await sender.send(importedMessage(message), { timeoutInSeconds: SEND_TIMEOUT_SECONDS });
      sent++;
    }
    return { node, sent };
  } catch (err) {
    throw new RpcError(
      OWNER_FAILURES.refused,
      `${node} took ${sent} of this part's ${call.messages.length} messages, then: ${(err as Error).message}`,
    );
  } finally {
    await connection.close().catch(() => undefined);
  }
}
