import { selectorLiteral, type BodyFilter, type BrowsedMessage } from '@artemis-studio/contracts';
import { Button, Tooltip } from '@mantine/core';

/** What an export takes: what the browse shows (filter, body filter), or the messages chosen on it. */
export type ExportSelection =
  { filter: string; body: BodyFilter | null; chosen?: undefined } | { chosen: BrowsedMessage[] };

/**
 * The chosen messages as the broker's selector names them (`AMQUserID`, ADR-0038), or why it
 * cannot: a message without an id of its own (`userId`) is named by no selector.
 */
export function chosenSelector(chosen: BrowsedMessage[]): { filter: string } | { refusal: string } {
  const without = chosen.filter((m) => !m.userId).length;
  if (without > 0)
    return {
      refusal: `${without} of the chosen messages carry no message id of their own, which is how an export names them: export by filter instead`,
    };
  return { filter: `AMQUserID IN (${chosen.map((m) => selectorLiteral(m.userId!)).join(', ')})` };
}

/**
 * A download of the queue's messages as NDJSON (one per line, typed properties, whole bodies, the
 * cluster's masking applied): the broker's filter, the body filter and the node the browse shows,
 * or the messages chosen on it, or every node.
 */
export function ExportLink({
  clusterId,
  queue,
  selection,
  node,
}: {
  clusterId: string;
  queue: string;
  selection: ExportSelection;
  node: string | undefined;
}) {
  const chosen = selection.chosen ? chosenSelector(selection.chosen) : null;
  const filter = selection.chosen ? (chosen && 'filter' in chosen ? chosen.filter : '') : selection.filter;
  const body = selection.chosen ? null : selection.body;
  const query = new URLSearchParams({
    ...(filter ? { filter } : {}),
    ...(body ? { body: body.expression, bodyMatch: body.match } : {}),
    ...(node ? { node } : {}),
  }).toString();
  const href = `/api/v1/clusters/${clusterId}/queues/${encodeURIComponent(queue)}/export${query ? `?${query}` : ''}`;
  const what = selection.chosen
    ? `The ${selection.chosen.length} chosen`
    : filter || body
      ? 'The matching messages'
      : 'Every message';
  const refusal = chosen && 'refusal' in chosen ? chosen.refusal : null;
  return (
    <Tooltip
      label={
        refusal ??
        `${what}${node ? ` on ${node}` : ' on every node'}, read once: properties typed, bodies whole`
      }
    >
      {refusal ? (
        <Button size="xs" variant="default" data-disabled data-testid="export-messages">
          Export NDJSON
        </Button>
      ) : (
        <Button component="a" href={href} download size="xs" variant="default" data-testid="export-messages">
          {selection.chosen ? `Export ${selection.chosen.length} chosen` : 'Export NDJSON'}
        </Button>
      )}
    </Tooltip>
  );
}
