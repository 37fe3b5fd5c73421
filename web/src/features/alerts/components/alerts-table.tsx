import type { Alert } from '@artemis-studio/contracts';
import { Anchor, Table, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { formatTime } from '../../../lib/ui/format';
import { LookBadge } from '../../../lib/ui/status-badges';
import { stateLook } from '../alert-text';

/** Alerts, each a link to its page: state, severity, what it is about and since when. */
export function AlertsTable({ alerts, showCluster }: { alerts: Alert[]; showCluster: boolean }) {
  if (alerts.length === 0) return <Text c="dimmed">No alerts here.</Text>;
  return (
    <Table striped highlightOnHover aria-label="Alerts">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>State</Table.Th>
          <Table.Th>Severity</Table.Th>
          {showCluster && <Table.Th>Cluster</Table.Th>}
          <Table.Th>Rule</Table.Th>
          <Table.Th>Subject</Table.Th>
          <Table.Th>What</Table.Th>
          <Table.Th>Since</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {alerts.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              <LookBadge look={stateLook(a.state, a.silencedBy !== null)} />
            </Table.Td>
            <Table.Td>{a.severity}</Table.Td>
            {showCluster && <Table.Td>{a.clusterName}</Table.Td>}
            <Table.Td>
              <Anchor component={Link} to={`/clusters/${a.clusterId}/alerts/${a.id}`}>
                {a.ruleName}
              </Anchor>
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-all' }}>{a.subject}</Table.Td>
            <Table.Td>{a.description}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              {a.state === 'resolved'
                ? `ended ${formatTime(a.endedAt)}`
                : formatTime(a.firedAt ?? a.startedAt)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
