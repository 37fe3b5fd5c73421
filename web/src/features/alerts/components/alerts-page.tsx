import { Alert as Callout, Group, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { useClusters } from '../../../lib/clusters/get-clusters';
import { QueryState } from '../../../lib/ui/query-state';
import { useAlertRules, useAlerts, useAlertSummary, type AlertFilters } from '../api/alerts';
import { AlertsTable } from './alerts-table';

const route = getRouteApi('/alerts');

/**
 * Every alert of the clusters the principal sees: firing first, then pending, then the resolved;
 * filtered by state, severity, cluster, rule and silence, all of it in the URL, so a link to the
 * page (from a chat, a runbook) shows the same alerts.
 */
export function AlertsPage() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const set = (change: Partial<typeof search>) =>
    void navigate({ search: (s) => ({ ...s, ...change }), replace: true });
  const filters: AlertFilters = {
    ...search,
    state: search.state ?? 'active',
    silenced: search.silenced === undefined ? undefined : search.silenced ? 'true' : 'false',
  };
  const alerts = useAlerts(filters);
  const summary = useAlertSummary();
  const clusters = useClusters();
  const rules = useAlertRules(search.cluster ?? '', search.cluster !== undefined);
  return (
    <Stack>
      <Title order={2}>Alerts</Title>
      {(summary.data?.unevaluated ?? []).map((u) => (
        <Callout
          key={u.clusterId}
          color="yellow"
          title={`${u.clusterName}: alerts not evaluated`}
          role="status"
        >
          {u.reason}
          {u.evaluatedAt ? ` (last evaluated ${new Date(u.evaluatedAt).toLocaleTimeString()})` : ''}. What is
          listed for it may be out of date.
        </Callout>
      ))}
      <Group align="flex-end">
        <SegmentedControl
          aria-label="Alert state"
          value={filters.state}
          onChange={(v) => set({ state: v === 'active' ? undefined : (v as typeof search.state) })}
          data={[
            { value: 'active', label: 'Firing and pending' },
            { value: 'firing', label: 'Firing' },
            { value: 'pending', label: 'Pending' },
            { value: 'resolved', label: 'Resolved' },
          ]}
        />
        <Select
          aria-label="Severity"
          placeholder="Any severity"
          clearable
          value={search.severity ?? null}
          onChange={(v) => set({ severity: (v as typeof search.severity) ?? undefined })}
          data={['critical', 'warning', 'info']}
          w={150}
        />
        <Select
          aria-label="Cluster"
          placeholder="Every cluster"
          clearable
          searchable
          value={search.cluster ?? null}
          onChange={(v) => set({ cluster: v ?? undefined, rule: undefined })}
          data={(clusters.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          w={200}
        />
        <Select
          aria-label="Rule"
          placeholder={search.cluster ? 'Every rule' : 'Choose a cluster for its rules'}
          disabled={!search.cluster}
          clearable
          searchable
          value={search.rule ?? null}
          onChange={(v) => set({ rule: v ?? undefined })}
          data={(rules.data?.items ?? []).map((r) => ({ value: r.id, label: r.name }))}
          w={220}
        />
        <Select
          aria-label="Silenced"
          placeholder="Silenced or not"
          clearable
          value={filters.silenced ?? null}
          onChange={(v) => set({ silenced: v === null ? undefined : v === 'true' })}
          data={[
            { value: 'false', label: 'Not silenced' },
            { value: 'true', label: 'Silenced now' },
          ]}
          w={170}
        />
      </Group>
      <QueryState query={alerts} what="the alerts">
        {(data) => <AlertsTable alerts={data.items} showCluster />}
      </QueryState>
      <Text size="sm" c="dimmed">
        Rules, silences and receivers are set per cluster, under each cluster&apos;s Alerting screen.
      </Text>
    </Stack>
  );
}
