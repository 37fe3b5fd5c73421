import type { DeliveryList } from '@artemis-studio/contracts';
import { Table, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { formatTime } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import { deliveryStatusText } from '../alert-text';

/** Every notification owed: to whom, of what, how many tries, and the last error of a failing one. */
export function DeliveryLog({ query }: { query: UseQueryResult<DeliveryList> }) {
  return (
    <QueryState query={query} what="the delivery log">
      {(data) =>
        data.items.length === 0 ? (
          <Text c="dimmed">Nothing sent yet.</Text>
        ) : (
          <Table aria-label="Delivery log">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>Transition</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Tries</Table.Th>
                <Table.Th>Last error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{formatTime(d.deliveredAt ?? d.createdAt)}</Table.Td>
                  <Table.Td>{d.receiverName}</Table.Td>
                  <Table.Td>{d.transition}</Table.Td>
                  <Table.Td>{deliveryStatusText(d)}</Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td>{d.lastError ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )
      }
    </QueryState>
  );
}
