import { AUDIT_OUTCOMES, type AuditEvent } from '@artemis-studio/contracts';
import { Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { formatInstant } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import { useAudit } from '../api/access';
import { TableHead } from '../../../lib/ui/table-head';

const OUTCOME_COLOUR: Record<AuditEvent['outcome'], string> = {
  success: 'green',
  failure: 'red',
  denied: 'orange',
};

/** Every sign-in and every change, newest first; filtered, and paged back in time. */
export function AuditPanel() {
  const [actor, setActor] = useState('');
  const [action, setAction] = useState('');
  const [outcome, setOutcome] = useState<AuditEvent['outcome'] | null>(null);
  const [pages, setPages] = useState<(number | undefined)[]>([undefined]);
  const before = pages[pages.length - 1];
  const audit = useAudit({ actor, action, outcome: outcome ?? undefined, before, limit: 50 });
  const reset = () => setPages([undefined]);
  return (
    <Stack>
      <Group align="flex-end">
        <TextInput label="Who" value={actor} onChange={(e) => (setActor(e.currentTarget.value), reset())} />
        <TextInput
          label="Action"
          placeholder="cluster.update"
          value={action}
          onChange={(e) => (setAction(e.currentTarget.value), reset())}
        />
        <Select
          label="Outcome"
          data={[...AUDIT_OUTCOMES]}
          value={outcome}
          onChange={(v) => (setOutcome(v as AuditEvent['outcome'] | null), reset())}
          clearable
          w={140}
        />
      </Group>
      <QueryState query={audit} what="audit trail">
        {(page) => (
          <>
            <Table aria-label="Audit trail" verticalSpacing={4} fz="sm">
              <TableHead columns={['When', 'Who', 'From', 'Action', 'Target', 'Outcome']} />
              <Table.Tbody>
                {page.items.map((event) => (
                  <Table.Tr key={event.seq}>
                    <Table.Td>{formatInstant(event.at)}</Table.Td>
                    <Table.Td>
                      {event.actor.name}
                      {event.role && (
                        <Text span c="dimmed" size="xs">
                          {' '}
                          as {event.role}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{event.address}</Table.Td>
                    <Table.Td>
                      <code>{event.action}</code>
                    </Table.Td>
                    <Table.Td>{event.target}</Table.Td>
                    <Table.Td>
                      <Badge color={OUTCOME_COLOUR[event.outcome]} variant="light">
                        {event.outcome}
                        {event.code ? `: ${event.code}` : ''}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group>
              <Button
                variant="default"
                disabled={pages.length === 1}
                onClick={() => setPages(pages.slice(0, -1))}
              >
                Newer
              </Button>
              <Button
                variant="default"
                disabled={page.nextBefore === null}
                onClick={() => setPages([...pages, page.nextBefore ?? undefined])}
              >
                Older
              </Button>
            </Group>
          </>
        )}
      </QueryState>
    </Stack>
  );
}
