import type { BodyFilter } from '@artemis-studio/contracts';
import { Button, Tooltip } from '@mantine/core';

/**
 * A download of the queue's messages as NDJSON (one per line, typed properties, whole bodies, the
 * cluster's masking applied): the broker's filter, the body filter and the node the browse shows,
 * or every node.
 */
export function ExportLink({
  clusterId,
  queue,
  filter,
  body,
  node,
}: {
  clusterId: string;
  queue: string;
  filter: string;
  body: BodyFilter | null;
  node: string | undefined;
}) {
  const query = new URLSearchParams({
    ...(filter ? { filter } : {}),
    ...(body ? { body: body.expression, bodyMatch: body.match } : {}),
    ...(node ? { node } : {}),
  }).toString();
  const href = `/api/v1/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/export${query ? `?${query}` : ''}`;
  return (
    <Tooltip
      label={`${filter || body ? 'The matching messages' : 'Every message'}${node ? ` on ${node}` : ' on every node'}, read once: properties typed, bodies whole`}
    >
      <Button component="a" href={href} download size="xs" variant="default" data-testid="export-messages">
        Export NDJSON
      </Button>
    </Tooltip>
  );
}
