import { Alert, Button, Card, Checkbox, Group, Select, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../../lib/api-client';
import { formatNumber, formatTime } from '../../../lib/ui/format';
import { TableHead } from '../../../lib/ui/table-head';
import { useQueueMessages } from '../api/get-queue-messages';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { MessageJobDialog, type JobSelection } from '../message-jobs/components/message-job-dialog';
import { bodyScanText, matchedText, previewLine } from '../message-text';
import { BrowseFilterFields, isBodyFilterError, type BrowseFilters } from './browse-filters';
import { looksLikeDeadLetters } from '../message-jobs/job-text';
import { ExportLink } from './export-link';
import { MessageDrawer } from './message-drawer';
import { ResendAction } from './resend-action';
import { shownIndex, stepFrom, type DrawerAt } from '../drawer-steps';

const PAGE_SIZE = 25;

/**
 * The queue's messages, a page at a time, as the broker shows them: filtered with the broker's own
 * selector syntax and by what the bodies hold (each error beside its field), counted as far as the
 * broker (or the body filter's read) counts, bodies marked where the broker cut them. Read on demand: each read rescans the queue under the broker's lock.
 */
export function QueueMessages({
  clusterId,
  queue,
  refusal,
  actionRefusal,
}: {
  clusterId: string;
  queue: string;
  /** Why this user may not read messages, or null. */
  refusal: string | null;
  /** Why this user may not act on them (role, read-only), or null. */
  actionRefusal: string | null;
}) {
  const [page, setPage] = useState(1);
  const [filters, setFilters] = useState<BrowseFilters>({ filter: '', body: null });
  const { filter, body } = filters;
  const [node, setNode] = useState<string | undefined>(undefined);
  const [opened, setOpened] = useState<DrawerAt | null>(null);
  // Ids are the broker's on one node, and only good until the page is read again.
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [job, setJob] = useState<JobSelection | null>(null);
  const params = {
    page,
    pageSize: PAGE_SIZE,
    node,
    filter: filter || undefined,
    ...(body ? { body: body.expression, bodyMatch: body.match } : {}),
  };
  const messages = useQueueMessages(clusterId, queue, params, refusal === null);
  const data = messages.data;
  const rows = data?.messages ?? [];
  const last = data ? rows.length < PAGE_SIZE : true;
  // The page asked for is in (not the one before it, kept on screen while the next is read).
  const pageIn = data !== undefined && !messages.isPlaceholderData;
  const shown = shownIndex(opened, rows.length, pageIn);
  const step = (direction: -1 | 1) => {
    if (shown === null) return;
    const next = stepFrom(shown, direction, { page, count: rows.length, last });
    if (!next) return;
    setOpened(next.at);
    setPage(next.page);
  };
  const filterError = messages.isError ? describeError(messages.error) : null;
  const choose = (id: string, on: boolean) =>
    setChosen((was) => {
      const next = new Set(was);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const ids = [...chosen].filter((id) => rows.some((m) => m.messageId === id));
  const onChosen = (kind: JobSelection['kind']) => setJob({ kind, messageIds: ids, node: data?.node });
  const onMatching = (kind: JobSelection['kind']) =>
    setJob({
      kind,
      ...(data?.filter ? { filter: data.filter } : {}),
      ...(data?.bodyFilter ? { bodyFilter: data.bodyFilter } : {}),
    });
  const narrowed = Boolean(data?.filter || data?.bodyFilter);

  if (refusal)
    return (
      <Card withBorder>
        <Text fw={600}>Messages</Text>
        <Text size="sm" c="dimmed">
          Reading messages {refusal} (message contents are often personal data).
        </Text>
      </Card>
    );

  return (
    // Linked to from a stuck-consumer alert: its head is the message to look at.
    <Card withBorder id="queue-messages">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>Messages</Text>
        <Group gap="xs">
          {data && (
            <Text size="sm" c="dimmed" data-testid="messages-read-at">
              read at {formatTime(messages.dataUpdatedAt)}
            </Text>
          )}
          <Button
            size="xs"
            variant="default"
            loading={messages.isFetching}
            onClick={() => void messages.refetch()}
          >
            Read again
          </Button>
          <ExportLink
            clusterId={clusterId}
            queue={queue}
            selection={
              ids.length > 0 ? { chosen: rows.filter((m) => chosen.has(m.messageId)) } : { filter, body }
            }
            node={ids.length > 0 ? data?.node : node}
          />
        </Group>
      </Group>
      <Group align="flex-start" mb="xs">
        <BrowseFilterFields
          value={filters}
          error={filterError}
          onChange={(next) => {
            setFilters(next);
            setPage(1);
          }}
        />
        {data && data.nodes.length > 1 && (
          <Select
            label="Node"
            data={data.nodes}
            value={data.node}
            onChange={(value) => {
              setNode(value ?? undefined);
              setPage(1);
            }}
            w={160}
          />
        )}
      </Group>
      {messages.isError && !filter && !isBodyFilterError(filterError) && (
        <Alert color="red" role="alert" mb="xs">
          {filterError}
        </Alert>
      )}
      {data && (
        <Text size="sm" c="dimmed" mb="xs" data-testid="messages-count">
          {data.bodyScan
            ? bodyScanText(data.bodyScan)
            : data.matched
              ? matchedText(data.matched, data.browseLimit)
              : `${formatNumber(data.depth ?? 0)} on node ${data.node}`}
          {` · page ${data.page}`}
        </Text>
      )}
      {data && rows.length > 0 && (
        <Group gap="xs" mb="xs" aria-label="Message actions">
          {ids.length > 0 ? (
            <>
              <Text size="sm">{ids.length} chosen:</Text>
              {(['move', 'copy', 'retry', 'delete'] as const).map((kind) => (
                <RefusableButton
                  key={kind}
                  refusal={actionRefusal}
                  size="xs"
                  variant="light"
                  color={kind === 'delete' ? 'red' : undefined}
                  onClick={() => onChosen(kind)}
                >
                  {kind[0].toUpperCase() + kind.slice(1)}…
                </RefusableButton>
              ))}
              <Button size="xs" variant="subtle" onClick={() => setChosen(new Set())}>
                Clear
              </Button>
            </>
          ) : (
            <>
              <RefusableButton
                refusal={actionRefusal}
                size="xs"
                variant="light"
                onClick={() => onMatching('move')}
              >
                {narrowed ? 'Move matching…' : 'Move all…'}
              </RefusableButton>
              {narrowed && looksLikeDeadLetters(queue) && (
                <RefusableButton
                  refusal={actionRefusal}
                  size="xs"
                  variant="light"
                  onClick={() => onMatching('retry')}
                >
                  Retry matching…
                </RefusableButton>
              )}
              {narrowed && (
                <RefusableButton
                  refusal={actionRefusal}
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => onMatching('delete')}
                >
                  Delete matching…
                </RefusableButton>
              )}
            </>
          )}
        </Group>
      )}
      {messages.isPending ? (
        <Text size="sm" c="dimmed">
          Reading messages…
        </Text>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {narrowed ? 'No message matches.' : 'No message on this page.'}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table aria-label="Messages" verticalSpacing={4} fz="sm" highlightOnHover>
            <TableHead columns={['', 'ID', 'Sent', 'Type', 'Size', 'Body']} />
            <Table.Tbody>
              {rows.map((m, i) => (
                <Table.Tr
                  key={m.messageId}
                  onClick={() => setOpened({ index: i })}
                  style={{ cursor: 'pointer' }}
                >
                  <Table.Td onClick={(e) => e.stopPropagation()} w={32}>
                    <Checkbox
                      aria-label={`Choose message ${m.messageId}`}
                      checked={chosen.has(m.messageId)}
                      onChange={(e) => choose(m.messageId, e.currentTarget.checked)}
                    />
                  </Table.Td>
                  <Table.Td>{m.messageId}</Table.Td>
                  <Table.Td>{m.timestamp ? formatTime(m.timestamp) : '—'}</Table.Td>
                  <Table.Td>{m.type}</Table.Td>
                  <Table.Td>{m.persistentSize === null ? '—' : formatNumber(m.persistentSize)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" truncate="end" maw={520}>
                      {previewLine(m)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="flex-end" mt="xs">
        <Button size="xs" variant="default" disabled={page === 1} onClick={() => setPage(page - 1)}>
          Newer
        </Button>
        <Button size="xs" variant="default" disabled={last} onClick={() => setPage(page + 1)}>
          Older
        </Button>
      </Group>
      <MessageJobDialog
        clusterId={clusterId}
        queue={queue}
        selection={job}
        onClose={() => {
          setJob(null);
          setChosen(new Set());
        }}
      />
      <MessageDrawer
        message={shown === null ? null : (rows[shown] ?? null)}
        hasPrevious={shown !== null && (shown > 0 || page > 1)}
        hasNext={shown !== null && (shown < rows.length - 1 || !last)}
        stepping={!pageIn}
        onStep={step}
        onClose={() => setOpened(null)}
        actions={(message) => (
          <ResendAction
            key={message.messageId}
            clusterId={clusterId}
            queue={queue}
            node={data?.node}
            message={message}
            refusal={actionRefusal}
          />
        )}
      />
    </Card>
  );
}
