import {
  Alert,
  Anchor,
  Group,
  Pagination,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { getRouteApi, Link } from '@tanstack/react-router';
import { QueryState } from '../../../lib/ui/query-state';
import { useSearchBox } from '../../../lib/ui/use-search-box';
import { useLiveList } from '../api/get-live-list';
import { linkOf, searchRows, sortRows, type LiveRow } from '../rows';

const route = getRouteApi('/clusters/$clusterId/$kind');
/** The API's largest page: search and sort apply within it, so it should hold the whole list mostly. */
const PAGE_SIZE = 500;
const TITLES = { consumers: 'Consumers', sessions: 'Sessions', connections: 'Connections' } as const;

function text(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The brokers' own fields, as read: the columns are whatever the live nodes report. */
function columnsOf(items: LiveRow[]): string[] {
  const seen = new Set<string>();
  for (const item of items.slice(0, 50)) for (const key of Object.keys(item)) seen.add(key);
  return [...seen];
}

/**
 * Consumers, sessions or connections, read live from every live node through the cluster's
 * scraper: a node that could not be read is said above the table; a consumer links to its
 * session and queue, a session to its connection and consumers.
 */
export function LiveListPage() {
  const { kind } = route.useParams();
  // A link from one list to another keeps this route: a new kind starts with its own search box.
  return <LiveList key={kind} />;
}

function LiveList() {
  const { clusterId, kind } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const page = search.page ?? 1;
  const list = useLiveList(clusterId, kind, { page, pageSize: PAGE_SIZE });
  const searchBox = useSearchBox(
    search.search,
    (value) => void navigate({ search: (s) => ({ ...s, search: value }) }),
  );
  const sortBy = (field: string) =>
    void navigate({
      search: (s) => ({ ...s, sort: field, order: s.sort === field && s.order !== 'desc' ? 'desc' : 'asc' }),
    });

  const cell = (field: string, value: unknown) => {
    const link = linkOf(kind, field, value);
    if (!link) return text(value);
    const to =
      link.kind === 'queue'
        ? `/clusters/${clusterId}/queues/${encodeURIComponent(link.search)}`
        : `/clusters/${clusterId}/${link.kind}?search=${encodeURIComponent(link.search)}`;
    return (
      <Anchor component={Link} to={to} size="sm">
        {text(value)}
      </Anchor>
    );
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{TITLES[kind]}</Title>
        <TextInput placeholder={`Search ${kind}`} aria-label={`Search ${kind}`} {...searchBox} w={320} />
      </Group>
      <QueryState query={list} what={kind}>
        {(data) => {
          const columns = columnsOf(data.items);
          const rows = sortRows(searchRows(data.items, search.search), search.sort, search.order);
          return (
            <Stack>
              {data.nodeErrors.map((e) => (
                <Alert key={e.node} color="orange" role="alert" title={`Node ${e.node}: not read`}>
                  {e.reason}. The list below is missing this node's {kind}.
                </Alert>
              ))}
              <Text size="sm" c="dimmed">
                {data.total.toLocaleString()} {kind}
                {data.partial ? ' (partial)' : ''}
                {search.search ? `; ${rows.length} on this page match “${search.search}”` : ''}
              </Text>
              {rows.length === 0 ? (
                <Text c="dimmed">{search.search ? `No ${kind} match.` : `No ${kind} right now.`}</Text>
              ) : (
                <Table.ScrollContainer minWidth={900}>
                  <Table striped aria-label={TITLES[kind]}>
                    <Table.Thead>
                      <Table.Tr>
                        {columns.map((c) => (
                          <Table.Th
                            key={c}
                            aria-sort={
                              search.sort === c
                                ? search.order === 'desc'
                                  ? 'descending'
                                  : 'ascending'
                                : undefined
                            }
                          >
                            <UnstyledButton onClick={() => sortBy(c)} fw={600} fz="sm">
                              {c}
                              {search.sort === c ? (search.order === 'desc' ? ' ▼' : ' ▲') : ''}
                            </UnstyledButton>
                          </Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {rows.map((item, i) => (
                        <Table.Tr key={i}>
                          {columns.map((c) => (
                            <Table.Td key={c}>{cell(c, item[c])}</Table.Td>
                          ))}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
              {data.total > PAGE_SIZE && (
                <Pagination
                  total={Math.ceil(data.total / PAGE_SIZE)}
                  value={page}
                  onChange={(p) =>
                    void navigate({ search: (s) => ({ ...s, page: p === 1 ? undefined : p }) })
                  }
                />
              )}
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
