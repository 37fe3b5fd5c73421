import { Alert, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { QueryState } from '../../../lib/ui/query-state';
import { useLiveList } from '../api/get-live-list';

const route = getRouteApi('/clusters/$clusterId/$kind');
const PAGE_SIZE = 50;
const TITLES = { consumers: 'Consumers', sessions: 'Sessions', connections: 'Connections' } as const;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The brokers' own fields, as read: the columns are whatever the live nodes report. */
function columnsOf(items: Record<string, unknown>[]): string[] {
  const seen = new Set<string>();
  for (const item of items.slice(0, 50)) for (const key of Object.keys(item)) seen.add(key);
  return [...seen];
}

export function LiveListPage() {
  const { clusterId, kind } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const page = search.page ?? 1;
  const list = useLiveList(clusterId, kind, { page, pageSize: PAGE_SIZE });
  return (
    <Stack>
      <Title order={2}>{TITLES[kind]}</Title>
      <QueryState query={list} what={kind}>
        {(data) => {
          const columns = columnsOf(data.items);
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
              </Text>
              {data.items.length === 0 ? (
                <Text c="dimmed">No {kind} right now.</Text>
              ) : (
                <Table.ScrollContainer minWidth={900}>
                  <Table striped aria-label={TITLES[kind]}>
                    <Table.Thead>
                      <Table.Tr>
                        {columns.map((c) => (
                          <Table.Th key={c}>{c}</Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.items.map((item, i) => (
                        <Table.Tr key={i}>
                          {columns.map((c) => (
                            <Table.Td key={c}>{cell(item[c])}</Table.Td>
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
                  onChange={(p) => void navigate({ search: { page: p === 1 ? undefined : p } })}
                />
              )}
            </Stack>
          );
        }}
      </QueryState>
    </Stack>
  );
}
