import { Table } from '@mantine/core';

/** A table's header row from its column names; an empty name is a column without a heading. */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <Table.Thead>
      <Table.Tr>
        {columns.map((column, i) => (
          <Table.Th key={column || `column-${i}`}>{column}</Table.Th>
        ))}
      </Table.Tr>
    </Table.Thead>
  );
}
