import { Badge, Table } from '@mantine/core';

/** A broker node id, short enough for a cell: its first block is unique in any real cluster. */
export const shortId = (id: string) => id.split('-')[0];

/** A link's state as the cluster tables show it: a word and the colour of its urgency. */
export interface LinkState {
  label: string;
  color: string;
}

export function LinkStateCell({ state }: { state: LinkState }) {
  return (
    <Table.Td>
      <Badge color={state.color} variant="light">
        {state.label}
      </Badge>
    </Table.Td>
  );
}
