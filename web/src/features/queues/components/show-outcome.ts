import type { NodeActionResult } from '@artemis-studio/contracts';
import { notifications } from '@mantine/notifications';
import { describeNode } from '../action-text';

/**
 * What an action did, node by node: green only when no node failed. A change that some nodes
 * refused says so in its title, not in green.
 */
export function showOutcome(
  title: string,
  nodes: readonly NodeActionResult[],
  /** What was done to the messages a node counts: a send's message was sent, not removed. */
  done?: string,
): void {
  const failed = nodes.some((n) => n.outcome === 'failed');
  notifications.show({
    color: failed ? 'orange' : 'green',
    title: failed ? `${title} on some nodes only` : title,
    message: nodes.map((n) => describeNode(n, done)).join('; '),
  });
}
