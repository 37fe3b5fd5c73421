import { QUEUE_SORT_FIELDS, type ClusterQueueRow } from '@artemis-studio/contracts';
import { Badge, Box, Group, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useRef, type CSSProperties, type MouseEvent, type ReactNode } from 'react';
import { describeError } from '../../../lib/api-client';
import { formatNumber, formatRate, formatTime } from '../../../lib/ui/format';
import { stickyHeader, virtualScroller } from '../../../lib/ui/virtual-table';
import classes from '../../../lib/ui/virtual-table.module.css';
import { queuesAcrossNodesQueryOptions, type QueuesFilter } from '../api/get-queues';
import { STRANDED_WHY } from '../../../lib/queues/stranded-text';
import { ROWS_PER_PAGE, useQueueRows } from '../hooks/use-queue-rows';

export type SortField = (typeof QUEUE_SORT_FIELDS)[number];
type RateField = 'addedPerSecond' | 'acknowledgedPerSecond' | 'expiredPerSecond' | 'killedPerSecond';
type CountField = Extract<
  SortField,
  | 'messageCount'
  | 'consumerCount'
  | 'deliveringCount'
  | 'messagesAdded'
  | 'messagesAcknowledged'
  | 'messagesExpired'
  | 'messagesKilled'
>;
const ROW_HEIGHT = 36;
const MIN_SLOTS = 128;

/**
 * A plain link: a router Link per row costs more than the rest of the row when thousands scroll
 * by; the table turns a click on it into a router navigation (QueueTable's onClick).
 */
function QueueLink({ clusterId, name }: { clusterId: string; name: string }) {
  return (
    <a
      href={`/clusters/${clusterId}/queues/${encodeURIComponent(name)}`}
      data-router-link
      title={name}
      className={classes.link}
    >
      {name}
    </a>
  );
}

/** Where the queue is: one node by name, or each node with its depth and consumers. */
function NodesCell({ queue }: { queue: ClusterQueueRow }) {
  const each =
    queue.nodes.length === 1
      ? queue.nodes[0].node
      : queue.nodes.map((p) => `${p.node} ${n(p.messageCount)}/${n(p.consumerCount)}`).join(' · ');
  return (
    <Group gap={4} wrap="nowrap">
      <span title={`depth/consumers per node: ${each}`}>{each}</span>
      {/* Beside the nodes, where the eye already is: messages on one node, consumers on another. */}
      {queue.stranded.map((s) => (
        <Badge
          key={s.node}
          color="orange"
          size="sm"
          title={`${n(s.messages)} on ${s.node}: ${STRANDED_WHY[s.reason]}`}
        >
          stranded on {s.node}
        </Badge>
      ))}
    </Group>
  );
}

interface Column {
  label: string;
  width: number;
  sort?: SortField;
  numeric?: boolean;
  cell(q: ClusterQueueRow, clusterId: string): ReactNode;
}

const n = formatNumber;
const rate = (label: string, field: RateField): Column => ({
  label,
  width: 80,
  sort: field,
  numeric: true,
  cell: (q) => formatRate(q[field]),
});
const count = (label: string, field: CountField, width = 95): Column => ({
  label,
  width,
  sort: field,
  numeric: true,
  cell: (q) => n(q[field]),
});
// What an operator looks at first comes first: how deep, who consumes, how fast in and out.
const COLUMNS: Column[] = [
  {
    label: 'Queue',
    width: 260,
    sort: 'name',
    cell: (q, clusterId) => <QueueLink clusterId={clusterId} name={q.name} />,
  },
  count('Depth', 'messageCount', 85),
  count('Consumers', 'consumerCount', 95),
  { label: 'Nodes', width: 300, cell: (q) => <NodesCell queue={q} /> },
  rate('In/s', 'addedPerSecond'),
  rate('Acked/s', 'acknowledgedPerSecond'),
  { label: 'Address', width: 180, sort: 'address', cell: (q) => q.address },
  { label: 'Routing', width: 100, cell: (q) => q.routingType },
  count('Delivering', 'deliveringCount', 90),
  count('Added', 'messagesAdded', 100),
  count('Acked', 'messagesAcknowledged', 100),
  count('Expired', 'messagesExpired', 80),
  count('Killed', 'messagesKilled', 80),
  rate('Expired/s', 'expiredPerSecond'),
  rate('Killed/s', 'killedPerSecond'),
  {
    label: 'State',
    width: 110,
    // Most queues are neither: nothing is rendered for them.
    cell: (q) =>
      q.paused || !q.durable ? (
        <Group gap={4} wrap="nowrap">
          {q.paused && (
            <Badge color="yellow" size="sm">
              paused
            </Badge>
          )}
          {!q.durable && (
            <Badge color="gray" variant="light" size="sm">
              non-durable
            </Badge>
          )}
        </Group>
      ) : null,
  },
  { label: 'Last change', width: 100, cell: (q) => formatTime(q.changedAt) },
];
const TEMPLATE = COLUMNS.map((c) => `${c.width}px`).join(' ');
const TABLE_WIDTH = COLUMNS.reduce((sum, c) => sum + c.width, 0);

const TABLE_VARIABLES = {
  '--vt-columns': TEMPLATE,
  '--vt-width': `${TABLE_WIDTH}px`,
  '--vt-row-height': `${ROW_HEIGHT}px`,
} as CSSProperties;
const CELL_CLASSES = COLUMNS.map((c) => (c.numeric ? `${classes.cell} ${classes.numeric}` : classes.cell));

/** One row slot; re-rendered only when it shows another queue or its queue's figures change (rows keep their identity across refetches). */
const QueueTableRow = memo(function QueueTableRow({
  clusterId,
  index,
  start,
  row,
}: {
  clusterId: string;
  index: number;
  start: number;
  row: ClusterQueueRow | undefined;
}) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      className={row ? classes.row : `${classes.row} ${classes.pending}`}
      style={{ transform: `translateY(${start}px)` }}
    >
      {COLUMNS.map((c, i) => (
        <div key={c.label} role="cell" className={CELL_CLASSES[i]}>
          {row ? c.cell(row, clusterId) : i === 0 ? '·' : ''}
        </div>
      ))}
    </div>
  );
});

/**
 * The rows, virtualised: its own component, so a scroll re-renders the rows in view and nothing
 * of the toolbar above (whose widgets measure themselves on every render).
 */
export function QueueTable({
  clusterId,
  filter,
  onSort,
}: {
  clusterId: string;
  filter: QueuesFilter;
  onSort(field: SortField): void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  // The rows' links are plain anchors: a plain click becomes a router navigation here.
  const follow = (event: MouseEvent) => {
    const link = (event.target as HTMLElement).closest('a[data-router-link]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    void navigate({ to: link.getAttribute('href')! });
  };
  // The first page carries the total; the virtualiser's rows in view say which other pages to read,
  // in the same render (a scroll is one render, not one for the scroll and one for the pages).
  const head = useQuery(
    queuesAcrossNodesQueryOptions(clusterId, { ...filter, page: 1, pageSize: ROWS_PER_PAGE }),
  );
  const total = head.data?.total;
  const virtualizer = useVirtualizer({
    count: total ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const inView = virtualizer.getVirtualItems();
  // Rows are recycled: a row element keeps its slot while the table scrolls and only its text
  // changes, where keys by index would unmount and build every row that comes into view (17 a
  // frame in a fast scroll). Slots outnumber the rows ever in view, so no two share a key.
  const slots = Math.max(MIN_SLOTS, inView.length);
  const { rows, fetching } = useQueueRows(
    clusterId,
    filter,
    inView[0]?.index ?? 0,
    inView.at(-1)?.index ?? 0,
  );

  return (
    <>
      {head.isError && (
        <Text c="red" role="alert">
          {head.data ? 'Showing the last queues loaded; the refresh failed: ' : 'Queues unavailable: '}
          {describeError(head.error)}
        </Text>
      )}
      <Text size="sm" c="dimmed" aria-live="polite">
        {total === undefined ? 'Loading queues…' : `${n(total)} queue${total === 1 ? '' : 's'}`}
        {filter.search ? ` matching “${filter.search}”` : ''}
        {fetching && total !== undefined ? ' · refreshing' : ''}
      </Text>
      <Box
        ref={scroller}
        onClick={follow}
        role="table"
        aria-label="Queues"
        aria-rowcount={total ?? -1}
        style={virtualScroller('calc(100vh - 300px)')}
      >
        <div style={{ width: TABLE_WIDTH, ...TABLE_VARIABLES }}>
          <div role="row" style={stickyHeader(TEMPLATE, ROW_HEIGHT)}>
            {COLUMNS.map((c, i) => (
              <div
                key={c.label}
                role="columnheader"
                className={CELL_CLASSES[i]}
                aria-sort={
                  c.sort && filter.sort === c.sort
                    ? filter.order === 'asc'
                      ? 'ascending'
                      : 'descending'
                    : undefined
                }
              >
                {c.sort ? (
                  <UnstyledButton onClick={() => onSort(c.sort!)} fw={600} fz="sm">
                    {c.label}
                    {filter.sort === c.sort ? (filter.order === 'asc' ? ' ▲' : ' ▼') : ''}
                  </UnstyledButton>
                ) : (
                  <Text fw={600} fz="sm">
                    {c.label}
                  </Text>
                )}
              </div>
            ))}
          </div>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {inView.map((item) => {
              return (
                <QueueTableRow
                  clusterId={clusterId}
                  key={item.index % slots}
                  index={item.index}
                  start={item.start}
                  row={rows.get(item.index)}
                />
              );
            })}
          </div>
        </div>
        {total === 0 && (
          <Text c="dimmed" p="md">
            {Object.values({ ...filter, sort: undefined, order: undefined }).some(Boolean)
              ? 'No queue matches the search and filters.'
              : 'No queue observed yet.'}
          </Text>
        )}
      </Box>
    </>
  );
}
