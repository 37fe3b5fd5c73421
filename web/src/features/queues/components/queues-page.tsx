import { Chip, Group, Select, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useSearchBox } from '../../../lib/ui/use-search-box';
import { type QueuesFilter } from '../api/get-queues';
import { useAbilities } from '../../../lib/access/me';
import { useCluster } from '../../../lib/clusters/get-cluster';
import { CreateAddressButton, CreateQueueButton, DeleteAddressButton } from './queue-forms';
import { actionRefusal, addressRefusal } from '../action-refusal';

import { QueueTable, type SortField } from './queue-table';

const route = getRouteApi('/clusters/$clusterId/queues');

/**
 * The cluster's queues as the scraper last stored them: a virtualised table over the paged API
 * (only the rows in view are in the page, and only their pages are read), sorted, searched and
 * filtered on the server, all of it in the URL.
 */
export function QueuesPage() {
  const { clusterId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const cluster = useCluster(clusterId);
  const can = useAbilities();
  const filter: QueuesFilter = {
    sort: search.sort ?? 'name',
    order: search.order ?? 'asc',
    search: search.search,
    address: search.address,
    routingType: search.routingType,
    consumers: search.consumers,
    kind: search.kind,
  };
  const searchBox = useSearchBox(
    search.search,
    (value) => void navigate({ search: (s) => ({ ...s, search: value }) }),
  );
  // A new filter or order is a new table (keyed below), starting at its top.
  const set = (change: Partial<typeof search>) => void navigate({ search: (s) => ({ ...s, ...change }) });
  const sortBy = (field: SortField) =>
    set({ sort: field, order: filter.sort === field && filter.order !== 'desc' ? 'desc' : 'asc' });

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <Title order={2}>Queues</Title>
          {cluster.data && (
            <>
              <CreateQueueButton clusterId={clusterId} refusal={actionRefusal(can, cluster.data)} />
              {/* Every queue hangs from an address: making and removing them is an administrator's. */}
              <CreateAddressButton clusterId={clusterId} refusal={addressRefusal(can, cluster.data)} />
              <DeleteAddressButton clusterId={clusterId} refusal={addressRefusal(can, cluster.data)} />
            </>
          )}
        </Group>
        <TextInput
          placeholder="Search queues and addresses"
          aria-label="Search queues"
          {...searchBox}
          w={320}
        />
      </Group>
      <Group gap="md" align="flex-end">
        <Select
          label="Routing"
          data={['ANYCAST', 'MULTICAST']}
          value={filter.routingType ?? null}
          onChange={(v) => set({ routingType: (v as typeof search.routingType) ?? undefined })}
          clearable
          placeholder="Any"
          w={150}
        />
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            Consumers
          </Text>
          <SegmentedControl
            aria-label="Consumers"
            value={filter.consumers ?? 'any'}
            data={[
              { value: 'any', label: 'Any' },
              { value: 'with', label: 'With' },
              { value: 'without', label: 'None' },
            ]}
            onChange={(v) => set({ consumers: v === 'any' ? undefined : (v as 'with' | 'without') })}
          />
        </Stack>
        <Group gap="xs" pb={4}>
          <Chip checked={filter.kind === 'dlq'} onChange={(on) => set({ kind: on ? 'dlq' : undefined })}>
            Dead letters
          </Chip>
          <Chip
            checked={filter.kind === 'expiry'}
            onChange={(on) => set({ kind: on ? 'expiry' : undefined })}
          >
            Expiry
          </Chip>
        </Group>
        <TextInput
          label="Address"
          placeholder="exactly"
          defaultValue={filter.address ?? ''}
          onKeyDown={(e) => e.key === 'Enter' && set({ address: e.currentTarget.value.trim() || undefined })}
          onBlur={(e) => set({ address: e.currentTarget.value.trim() || undefined })}
          w={200}
        />
      </Group>
      <QueueTable key={JSON.stringify(filter)} clusterId={clusterId} filter={filter} onSort={sortBy} />
    </Stack>
  );
}
