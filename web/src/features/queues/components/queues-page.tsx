import { QUEUE_SORT_FIELDS, type QueueRow } from '@artemis-studio/contracts';
import {
  Anchor,
  Badge,
  Group,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { QueryState } from '../../../lib/ui/query-state';
import { formatTime } from '../../../lib/ui/format';
import { useQueues } from '../api/get-queues';

const route = getRouteApi('/clusters/$clusterId/queues');

function QueueLink({ name }: { name: string }) {
  const { clusterId } = route.useParams();
  return (
    <Anchor
      component={Link}
      to={`/clusters/${clusterId}/queues/${encodeURIComponent(name)}`}
      fw={600}
      size="sm"
    >
      {name}
    </Anchor>
  );
}
const PAGE_SIZE = 50;
type SortField = (typeof QUEUE_SORT_FIELDS)[number];

const COLUMNS: { label: string; sort?: SortField; numeric?: boolean; cell(q: QueueRow): React.ReactNode }[] =
  [
    {
      label: 'Queue',
      sort: 'name',
      cell: (q) => <QueueLink name={q.name} />,
    },
    { label: 'Address', sort: 'address', cell: (q) => q.address },
    { label: 'Node', cell: (q) => q.node },
    { label: 'Routing', cell: (q) => q.routingType },
    { label: 'Depth', sort: 'messageCount', numeric: true, cell: (q) => q.messageCount.toLocaleString() },
    { label: 'Consumers', sort: 'consumerCount', numeric: true, cell: (q) => q.consumerCount },
    { label: 'Delivering', sort: 'deliveringCount', numeric: true, cell: (q) => q.deliveringCount },
    { label: 'Added', sort: 'messagesAdded', numeric: true, cell: (q) => q.messagesAdded.toLocaleString() },
    { label: 'Acked', numeric: true, cell: (q) => q.messagesAcknowledged.toLocaleString() },
    { label: 'Expired', numeric: true, cell: (q) => q.messagesExpired.toLocaleString() },
    { label: 'Killed', numeric: true, cell: (q) => q.messagesKilled.toLocaleString() },
    {
      label: 'State',
      cell: (q) => (
        <Group gap={4}>
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
      ),
    },
    { label: 'Observed', cell: (q) => formatTime(q.observedAt) },
  ];

/** The cluster's queues as the scraper last stored them: searchable, sortable, paged, all in the URL. */
export function QueuesPage() {
  const { clusterId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const params = {
    page: search.page ?? 1,
    pageSize: PAGE_SIZE,
    sort: search.sort ?? 'name',
    order: search.order ?? 'asc',
    search: search.search,
  } as const;
  const queues = useQueues(clusterId, params);
  const [typed, setTyped] = useState(search.search ?? '');
  const applySearch = useDebouncedCallback(
    (value: string) =>
      void navigate({ search: (s) => ({ ...s, search: value || undefined, page: undefined }) }),
    250,
  );
  const sortBy = (field: SortField) =>
    void navigate({
      search: (s) => ({
        ...s,
        sort: field,
        order: s.sort === field && s.order !== 'desc' ? 'desc' : 'asc',
        page: undefined,
      }),
    });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Queues</Title>
        <TextInput
          placeholder="Search queues and addresses"
          aria-label="Search queues"
          value={typed}
          onChange={(e) => {
            setTyped(e.currentTarget.value);
            applySearch(e.currentTarget.value);
          }}
          w={320}
        />
      </Group>
      <QueryState query={queues} what="queues">
        {(page) => (
          <Stack>
            <Text size="sm" c="dimmed">
              {page.total.toLocaleString()} queue{page.total === 1 ? '' : 's'}
              {params.search ? ` matching “${params.search}”` : ''}
            </Text>
            <Table.ScrollContainer minWidth={1100}>
              <Table striped highlightOnHover aria-label="Queues" stickyHeader>
                <Table.Thead>
                  <Table.Tr>
                    {COLUMNS.map((c) => (
                      <Table.Th
                        key={c.label}
                        style={{ textAlign: c.numeric ? 'right' : undefined }}
                        aria-sort={
                          c.sort && params.sort === c.sort
                            ? params.order === 'asc'
                              ? 'ascending'
                              : 'descending'
                            : undefined
                        }
                      >
                        {c.sort ? (
                          <UnstyledButton onClick={() => sortBy(c.sort!)} fw={600} fz="sm">
                            {c.label}
                            {params.sort === c.sort ? (params.order === 'asc' ? ' ▲' : ' ▼') : ''}
                          </UnstyledButton>
                        ) : (
                          c.label
                        )}
                      </Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {page.items.map((q) => (
                    <Table.Tr key={`${q.node}/${q.name}`}>
                      {COLUMNS.map((c) => (
                        <Table.Td key={c.label} style={{ textAlign: c.numeric ? 'right' : undefined }}>
                          {c.cell(q)}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {page.items.length === 0 && (
              <Text c="dimmed">
                {params.search ? 'No queue matches the search.' : 'No queue observed yet.'}
              </Text>
            )}
            {page.total > PAGE_SIZE && (
              <Pagination
                total={Math.ceil(page.total / PAGE_SIZE)}
                value={params.page}
                onChange={(p) => void navigate({ search: (s) => ({ ...s, page: p === 1 ? undefined : p }) })}
              />
            )}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
