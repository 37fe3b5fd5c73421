import { Alert as Callout, Group, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { QueryState } from '../../../lib/ui/query-state';
import { useAlerts, useAlertSummary, type AlertFilters } from '../api/alerts';
import { AlertsTable } from './alerts-table';

/** Every alert of the clusters the principal sees: firing first, then pending, then the resolved. */
export function AlertsPage() {
  const [state, setState] = useState<NonNullable<AlertFilters['state']>>('active');
  const [severity, setSeverity] = useState<AlertFilters['severity']>(undefined);
  const alerts = useAlerts({ state, severity });
  const summary = useAlertSummary();
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
      <Group>
        <SegmentedControl
          aria-label="Alert state"
          value={state}
          onChange={(v) => setState(v as typeof state)}
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
          value={severity ?? null}
          onChange={(v) => setSeverity((v as AlertFilters['severity']) ?? undefined)}
          data={['critical', 'warning', 'info']}
          w={160}
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
