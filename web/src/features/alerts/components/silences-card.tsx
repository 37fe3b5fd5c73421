import { Card, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { formatTime } from '../../../lib/ui/format';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { QueryState } from '../../../lib/ui/query-state';
import { useCreateSilence, useEndSilence, useSilences } from '../api/alerts';

const SILENCE_HOURS = ['1', '2', '4', '8', '24'];

/** Silences in force and lately ended; an operator's, with a reason and an end. */
export function Silences({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const silences = useSilences(clusterId);
  const create = useCreateSilence(clusterId);
  const end = useEndSilence(clusterId);
  const [subjects, setSubjects] = useState('*');
  const [hours, setHours] = useState('2');
  const [reason, setReason] = useState('');
  const submit = () =>
    create.mutate(
      { subjects, reason, endsAt: new Date(Date.now() + Number(hours) * 3_600_000).toISOString() },
      { onSuccess: () => setReason('') },
    );
  return (
    <Card withBorder>
      <Stack>
        <Text fw={600}>Silences</Text>
        <Text size="sm" c="dimmed">
          A silenced alert is still evaluated and listed; nobody is notified of it until the silence ends.
        </Text>
        <Group align="flex-end">
          <TextInput
            label="Subjects"
            value={subjects}
            onChange={(e) => setSubjects(e.currentTarget.value)}
            w={200}
          />
          <Select
            label="For (hours)"
            data={SILENCE_HOURS}
            value={hours}
            onChange={(v) => v && setHours(v)}
            w={110}
          />
          <TextInput
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <RefusableButton
            refusal={refusal}
            onClick={submit}
            loading={create.isPending}
            disabled={!reason.trim()}
          >
            Silence
          </RefusableButton>
        </Group>
        <FailureAlert error={create.error ?? end.error} />
        <QueryState query={silences} what="the silences">
          {(data) =>
            data.items.length === 0 ? (
              <Text c="dimmed">No silence in force.</Text>
            ) : (
              <Table aria-label="Silences">
                <Table.Tbody>
                  {data.items.map((s) => {
                    const over = s.endedEarlyAt !== null || Date.parse(s.endsAt) <= Date.now();
                    return (
                      <Table.Tr key={s.id}>
                        <Table.Td>{s.subjects}</Table.Td>
                        <Table.Td>{s.reason}</Table.Td>
                        <Table.Td>by {s.createdBy}</Table.Td>
                        <Table.Td>
                          {over
                            ? `ended ${formatTime(s.endedEarlyAt ?? s.endsAt)}`
                            : `until ${formatTime(s.endsAt)}`}
                        </Table.Td>
                        <Table.Td>
                          {!over && (
                            <RefusableButton
                              size="xs"
                              variant="default"
                              refusal={refusal}
                              onClick={() => end.mutate(s.id)}
                            >
                              End now
                            </RefusableButton>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            )
          }
        </QueryState>
      </Stack>
    </Card>
  );
}
