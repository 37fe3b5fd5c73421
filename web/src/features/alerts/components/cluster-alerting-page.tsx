import { Card, Stack, Text, Title } from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { useClusters } from '../../../lib/clusters/get-clusters';
import { useAbilities } from '../../../lib/access/me';
import { QueryState } from '../../../lib/ui/query-state';
import { useAlerts, useDeliveries } from '../api/alerts';
import { AlertsTable } from './alerts-table';
import { DeliveryLog } from './delivery-log';
import { Receivers } from './receivers-card';
import { Rules } from './rules-card';
import { Silences } from './silences-card';

/** One cluster's alerting: its alerts, rules, silences, receivers and delivery log. */
export function ClusterAlertingPage() {
  const { clusterId } = useParams({ from: '/clusters/$clusterId/alerting' });
  const cluster = useClusters().data?.find((c) => c.id === clusterId);
  const can = useAbilities();
  const name = cluster?.name ?? '';
  const adminRefusal = cluster ? can.refusal(name, 'admin') : 'loading the cluster';
  const operatorRefusal = cluster ? can.refusal(name, 'operator') : 'loading the cluster';
  const alerts = useAlerts({ state: 'active', cluster: clusterId });
  return (
    <Stack>
      <Title order={2}>Alerting</Title>
      <Card withBorder>
        <Stack>
          <Text fw={600}>Firing and pending</Text>
          <QueryState query={alerts} what="the alerts">
            {(data) => <AlertsTable alerts={data.items} showCluster={false} />}
          </QueryState>
        </Stack>
      </Card>
      <Rules clusterId={clusterId} refusal={adminRefusal} />
      <Silences clusterId={clusterId} refusal={operatorRefusal} />
      {adminRefusal === null ? (
        <Receivers clusterId={clusterId} />
      ) : (
        <Text size="sm" c="dimmed">
          Receivers (where alerts are sent) are shown to admins: {adminRefusal}.
        </Text>
      )}
      <Card withBorder>
        <Stack>
          <Text fw={600}>Delivery log</Text>
          <DeliveryLog query={useDeliveries(clusterId)} />
        </Stack>
      </Card>
    </Stack>
  );
}
