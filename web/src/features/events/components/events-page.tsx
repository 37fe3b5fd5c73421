import { UNOBSERVED_EVENT_TYPE, unobservedPeriod, type BrokerEvent } from '@artemis-studio/contracts';
import { Alert, Box, Button, Code, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { describeError } from '../../../lib/api-client';
import { mergeFeed, type LiveGap } from '../../../lib/live-events/live-event-feed';
import { useLiveEvents } from '../../../lib/live-events/use-live-events';
import { EventDrawer } from '../../../lib/ui/event-drawer';
import { formatNumber, formatTime } from '../../../lib/ui/format';
import { stickyHeader, virtualScroller } from '../../../lib/ui/virtual-table';
import classes from '../../../lib/ui/virtual-table.module.css';
import { useEventHistory, useUnobservedPeriods, type EventsFilters } from '../api/get-events';
import { describeDrops } from '../drops';
import { FILTER_FIELDS, isFiltered, matches, withUnobserved } from '../feed';
import { describeUnobserved } from '../unobserved';

const route = getRouteApi('/clusters/$clusterId/events');
const ROW_HEIGHT = 34;

function gapMessage(gap: LiveGap): string {
  // With the history away, what was missed cannot be counted: maybe nothing, maybe much.
  const count = gap.frame.missed === null ? 'Any events missed' : `${formatNumber(gap.frame.missed)} events`;
  const span = `${gap.from ? formatTime(gap.from) : 'before'}–${formatTime(gap.to)}`;
  const why = gap.frame.reason === 'replay-cap' ? 'more than the replay cap' : 'the history was unavailable';
  return `${count} not replayed (${why}) — open history for ${span}`;
}

const COLUMNS: { label: string; width: string; cell(e: BrokerEvent): string }[] = [
  { label: 'Time', width: '90px', cell: (e) => formatTime(e.brokerTs ?? e.receivedAt) },
  { label: 'Type', width: '200px', cell: (e) => e.type },
  { label: 'Node', width: '90px', cell: (e) => e.node },
  { label: 'Address', width: 'minmax(140px, 1fr)', cell: (e) => e.address ?? '—' },
  { label: 'Queue', width: 'minmax(140px, 1fr)', cell: (e) => e.queue ?? '—' },
  { label: 'Remote', width: '150px', cell: (e) => e.remoteAddress ?? '—' },
];
const TEMPLATE = COLUMNS.map((c) => c.width).join(' ');
const UNOBSERVED_CELL: CSSProperties = {
  gridColumn: '1 / -1',
  color: 'var(--mantine-color-orange-filled)',
  fontWeight: 600,
};
const TABLE_VARIABLES = { '--vt-columns': TEMPLATE, '--vt-row-height': `${ROW_HEIGHT}px` } as CSSProperties;

/**
 * Broker events as they happen on top of the stored history, newest first: one virtualised feed
 * that reads older pages as you scroll (keyset, by seq), the same filters on both, no gap unsaid.
 */
export function EventsPage() {
  const { clusterId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const filters: EventsFilters = search;
  const history = useEventHistory(clusterId, filters);
  const periods = useUnobservedPeriods(clusterId, filters, isFiltered(filters));
  // A change of filters starts the live part afresh: the history query answers for the new filters.
  const {
    events: live,
    gaps,
    held,
  } = useLiveEvents(clusterId, (e) => matches(e, filters), JSON.stringify(filters));
  const [selected, setSelected] = useState<BrokerEvent | null>(null);
  const scroller = useRef<HTMLDivElement>(null);

  const window = Boolean(filters.from || filters.to);
  const pages = history.data?.pages ?? [];
  const stored = useMemo(() => {
    const rows = pages.flatMap((p) => p.items);
    if (!periods.data) return rows;
    return withUnobserved(rows, periods.data, !history.isPending && !history.hasNextPage);
  }, [pages, periods.data, history.isPending, history.hasNextPage]);
  const feed = useMemo(() => (window ? stored : mergeFeed(live, stored)), [window, live, stored]);
  // Unobserved periods are rows of the feed but not broker events: the count leaves them out.
  // By type, as the filters do: parsing each row's props on every live event is work for nothing.
  const eventCount = useMemo(() => feed.filter((e) => e.type !== UNOBSERVED_EVENT_TYPE).length, [feed]);
  const dropped = pages[0]?.dropped ?? 0;
  const drops = pages[0]?.drops ?? [];

  const virtualizer = useVirtualizer({
    count: feed.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 20,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : 0;
  useEffect(() => {
    if (lastIndex >= feed.length - 20 && history.hasNextPage && !history.isFetchingNextPage)
      void history.fetchNextPage();
  }, [lastIndex, feed.length, history]);

  const setFilter = (key: (typeof FILTER_FIELDS)[number], value: string) =>
    void navigate({ search: (s) => ({ ...s, [key]: value || undefined }) });

  return (
    <Stack>
      <Title order={2}>Events</Title>
      <Group align="flex-end">
        {FILTER_FIELDS.map((key) => (
          <TextInput
            key={`${key}:${search[key] ?? ''}`}
            label={key[0].toUpperCase() + key.slice(1)}
            defaultValue={search[key] ?? ''}
            onBlur={(e) => setFilter(key, e.currentTarget.value.trim())}
            onKeyDown={(e) => e.key === 'Enter' && setFilter(key, e.currentTarget.value.trim())}
            w={160}
          />
        ))}
        {window && (
          <Button
            variant="subtle"
            onClick={() => void navigate({ search: (s) => ({ ...s, from: undefined, to: undefined }) })}
          >
            Back to live
          </Button>
        )}
      </Group>
      {window && (
        <Text size="sm">
          History from {filters.from ? formatTime(filters.from) : 'the start'} to{' '}
          {filters.to ? formatTime(filters.to) : 'now'}.
        </Text>
      )}
      {gaps.map((gap, i) => (
        <Alert key={i} color="orange" role="alert" data-testid="replay-gap">
          <Group justify="space-between">
            <Text size="sm">{gapMessage(gap)}</Text>
            <Button
              size="xs"
              variant="light"
              onClick={() =>
                void navigate({ search: (s) => ({ ...s, from: gap.from ?? undefined, to: gap.to }) })
              }
            >
              Open history
            </Button>
          </Group>
        </Alert>
      ))}
      {dropped > 0 && (
        <Alert color="red" title="Events were lost" role="alert" data-testid="dropped">
          {formatNumber(dropped)} broker events of this cluster were dropped at a bound and are not in the
          history:
          <ul style={{ margin: '4px 0 0' }}>
            {drops.map((d) => (
              <li key={d.source}>{describeDrops(d)}</li>
            ))}
          </ul>
        </Alert>
      )}
      {history.isError && (
        <Alert color="red" role="alert">
          {pages.length ? 'Showing the history loaded; the refresh failed: ' : 'Event history unavailable: '}
          {describeError(history.error)}
        </Alert>
      )}
      <Text size="sm" c="dimmed">
        {history.isPending
          ? 'Loading event history…'
          : `${eventCount.toLocaleString()} events shown${history.hasNextPage ? '; scroll for older' : '; no older events are kept'}`}
        {history.isFetchingNextPage ? ' · reading older events' : ''}
        {held > 0 && <span data-testid="events-held"> · {formatNumber(held)} new, shown on Resume</span>}
      </Text>
      <Box
        ref={scroller}
        role="table"
        aria-label="Broker events"
        style={virtualScroller('calc(100vh - 330px)')}
      >
        <div role="row" style={stickyHeader(TEMPLATE, ROW_HEIGHT)}>
          {COLUMNS.map((c) => (
            <div key={c.label} role="columnheader" className={`${classes.cell} ${classes.heading}`}>
              {c.label}
            </div>
          ))}
        </div>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative', ...TABLE_VARIABLES }}>
          {items.map((item) => {
            const event = feed[item.index];
            const period = unobservedPeriod(event);
            return (
              <div
                key={event.seq}
                role="row"
                tabIndex={0}
                onClick={() => setSelected(event)}
                onKeyDown={(e) => e.key === 'Enter' && setSelected(event)}
                className={`${classes.row} ${classes.clickable}`}
                style={{ transform: `translateY(${item.start}px)` }}
                data-testid={period ? 'unobserved' : undefined}
              >
                {period ? (
                  // Studio's own record of a hole in the history: one line across the row.
                  <div
                    role="cell"
                    className={classes.cell}
                    style={UNOBSERVED_CELL}
                    title={describeUnobserved(period)}
                  >
                    {describeUnobserved(period)}
                  </div>
                ) : (
                  COLUMNS.map((c) => (
                    <div key={c.label} role="cell" className={classes.cell} title={c.cell(event)}>
                      {c.label === 'Type' ? <Code>{c.cell(event)}</Code> : c.cell(event)}
                    </div>
                  ))
                )}
              </div>
            );
          })}
        </div>
        {!history.isPending && feed.length === 0 && (
          <Text c="dimmed" p="md">
            No broker event{window ? ' in this period' : ' yet'}.
          </Text>
        )}
      </Box>
      <EventDrawer event={selected} onClose={() => setSelected(null)} />
    </Stack>
  );
}
