import type { BrokerEvent, ReplayGapFrame } from '@artemis-studio/contracts';
import { Alert, Button, Code, Drawer, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLive, useStreamListener } from '../../../lib/live-context';
import { QueryState } from '../../../lib/ui/query-state';
import { formatTime } from '../../../lib/ui/format';
import { useEventHistory } from '../api/get-events';
import { addLive, matches, mergeFeed } from '../feed';

const route = getRouteApi('/clusters/$clusterId/events');

interface Gap {
  frame: ReplayGapFrame;
  from: string | null;
  to: string;
}

function gapMessage(gap: Gap): string {
  const count = gap.frame.missed === null ? 'Events' : `${gap.frame.missed.toLocaleString()} events`;
  const span = `${gap.from ? formatTime(gap.from) : 'before'}–${formatTime(gap.to)}`;
  const why = gap.frame.reason === 'replay-cap' ? 'more than the replay cap' : 'the history was unavailable';
  return `${count} not replayed (${why}) — open history for ${span}`;
}

/** Broker events as they happen, on top of the stored history: one feed, no gap left unsaid. */
export function EventsPage() {
  const { clusterId } = route.useParams();
  const filters = route.useSearch();
  const navigate = route.useNavigate();
  const { pause } = useLive();
  const history = useEventHistory(clusterId, filters);
  const [live, setLive] = useState<BrokerEvent[]>([]);
  const held = useRef<BrokerEvent[]>([]);
  const [gaps, setGaps] = useState<Gap[]>([]);
  const [selected, setSelected] = useState<BrokerEvent | null>(null);
  const newest = useRef<BrokerEvent | null>(null);

  // A change of filters starts the live part afresh: the history query answers for the new filters.
  const filterKey = JSON.stringify(filters);
  useEffect(() => {
    setLive([]);
    held.current = [];
  }, [filterKey]);
  useEffect(
    () =>
      pause.onResume(() => {
        setLive((feed) => addLive(feed, held.current));
        held.current = [];
      }),
    [pause],
  );

  const listener = useMemo(
    () => ({
      event: (event: BrokerEvent) => {
        if (!newest.current || event.seq > newest.current.seq) newest.current = event;
        if (!matches(event, filters)) return;
        if (pause.isPaused()) held.current.push(event);
        else setLive((feed) => addLive(feed, [event]));
      },
      gap: (frame: ReplayGapFrame) =>
        setGaps((all) => [
          {
            frame,
            from: newest.current?.brokerTs ?? newest.current?.receivedAt ?? null,
            to: new Date().toISOString(),
          },
          ...all,
        ]),
    }),
    [filterKey, pause],
  );
  useStreamListener(clusterId, listener);

  const setFilter = useCallback(
    (key: 'type' | 'address' | 'queue' | 'node', value: string) =>
      void navigate({ search: (s) => ({ ...s, [key]: value || undefined }) }),
    [navigate],
  );

  return (
    <Stack>
      <Title order={2}>Events</Title>
      <Group align="flex-end">
        {(['type', 'address', 'queue', 'node'] as const).map((key) => (
          <TextInput
            key={key}
            label={key[0].toUpperCase() + key.slice(1)}
            defaultValue={filters[key] ?? ''}
            onBlur={(e) => setFilter(key, e.currentTarget.value.trim())}
            onKeyDown={(e) => e.key === 'Enter' && setFilter(key, e.currentTarget.value.trim())}
            w={180}
          />
        ))}
        {(filters.from || filters.to) && (
          <Button
            variant="subtle"
            onClick={() => void navigate({ search: (s) => ({ ...s, from: undefined, to: undefined }) })}
          >
            Back to live
          </Button>
        )}
      </Group>
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
      <QueryState query={history} what="event history">
        {(page) => {
          const inRange = !filters.from && !filters.to;
          const feed = inRange ? mergeFeed(live, page.items) : page.items;
          return (
            <Stack>
              {page.dropped > 0 && (
                <Alert color="red" title="Events were lost" role="alert" data-testid="dropped">
                  {page.dropped.toLocaleString()} broker events of this cluster were dropped at a bound
                  (notifier, event store or stream) and are not in the history.
                </Alert>
              )}
              {feed.length === 0 ? (
                <Text c="dimmed">No broker event{inRange ? ' yet' : ' in this period'}.</Text>
              ) : (
                <Table highlightOnHover aria-label="Broker events">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Time</Table.Th>
                      <Table.Th>Type</Table.Th>
                      <Table.Th>Node</Table.Th>
                      <Table.Th>Address</Table.Th>
                      <Table.Th>Queue</Table.Th>
                      <Table.Th>Remote</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {feed.slice(0, 500).map((e) => (
                      <Table.Tr key={e.seq} onClick={() => setSelected(e)} style={{ cursor: 'pointer' }}>
                        <Table.Td>{formatTime(e.brokerTs ?? e.receivedAt)}</Table.Td>
                        <Table.Td>
                          <Code>{e.type}</Code>
                        </Table.Td>
                        <Table.Td>{e.node}</Table.Td>
                        <Table.Td>{e.address ?? '—'}</Table.Td>
                        <Table.Td>{e.queue ?? '—'}</Table.Td>
                        <Table.Td>{e.remoteAddress ?? '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          );
        }}
      </QueryState>
      <Drawer
        opened={selected !== null}
        onClose={() => setSelected(null)}
        position="right"
        size="lg"
        title={selected?.type}
      >
        {selected && <Code block>{JSON.stringify(selected, null, 2)}</Code>}
      </Drawer>
    </Stack>
  );
}
