import type { Protection } from '@artemis-studio/contracts';
import { Alert, Button, Card, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { describeError } from '../../../lib/api-client';
import { useLiftProtection, useProtect, useProtections } from '../../../lib/clusters/protections';
import { formatTime } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';

/**
 * Protected queues and addresses (issue 62, item 2): on a name a pattern matches, a purge or a
 * deletion of messages needs an administrator and a reason, and deleting it is refused until the
 * protection is lifted here. Every change is audited.
 */
export function ProtectionsCard({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const protections = useProtections(clusterId);
  const protect = useProtect(clusterId);
  const lift = useLiftProtection(clusterId);
  const [pattern, setPattern] = useState('');
  const [reason, setReason] = useState('');
  const add = (request: { pattern: string; reason: string }) =>
    protect.mutateAsync(request).then(() => {
      setPattern('');
      setReason('');
    });
  return (
    <Card withBorder>
      <Stack>
        <Stack gap={2}>
          <Text fw={600}>Protected queues and addresses</Text>
          <Text size="sm" c="dimmed">
            On a queue or address a pattern names (* is any run of characters), a purge or deleting its
            messages needs an administrator of the cluster and a reason, kept in the audit trail; deleting it
            is refused until its protection is lifted here.
          </Text>
        </Stack>
        <QueryState query={protections} what="the protected queues">
          {(list) => (
            <Stack>
              {list.items.length > 0 && (
                <Table aria-label="Protected patterns">
                  <Table.Tbody>
                    {list.items.map((p: Protection) => (
                      <Table.Tr key={p.id}>
                        <Table.Td fw={600}>{p.pattern}</Table.Td>
                        <Table.Td>{p.reason}</Table.Td>
                        <Table.Td c="dimmed">
                          {p.createdBy}, {formatTime(p.createdAt)}
                        </Table.Td>
                        <Table.Td>
                          <RefusableButton
                            refusal={refusal}
                            size="xs"
                            variant="subtle"
                            color="red"
                            aria-label={`Lift the protection of ${p.pattern}`}
                            onClick={() => lift.mutate(p.id)}
                          >
                            Lift
                          </RefusableButton>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
              {list.suggestions.map((s) => (
                <Group key={s.pattern} justify="space-between" wrap="nowrap">
                  <Text size="sm">
                    Suggested: <b>{s.pattern}</b>, {s.reason}
                  </Text>
                  <RefusableButton
                    refusal={refusal}
                    size="xs"
                    variant="light"
                    aria-label={`Protect ${s.pattern}`}
                    onClick={() => void add(s).catch(() => undefined)}
                  >
                    Protect
                  </RefusableButton>
                </Group>
              ))}
              <Group align="flex-end">
                <TextInput
                  label="Pattern"
                  value={pattern}
                  onChange={(e) => setPattern(e.currentTarget.value)}
                />
                <TextInput
                  label="Why it is protected"
                  value={reason}
                  onChange={(e) => setReason(e.currentTarget.value)}
                  style={{ flex: 1 }}
                />
                <Button
                  disabled={refusal !== null || !pattern.trim() || !reason.trim()}
                  loading={protect.isPending}
                  onClick={() => void add({ pattern, reason }).catch(() => undefined)}
                >
                  Protect
                </Button>
              </Group>
              {(protect.isError || lift.isError) && (
                <Alert color="red" role="alert">
                  {describeError(protect.error ?? lift.error)}
                </Alert>
              )}
            </Stack>
          )}
        </QueryState>
      </Stack>
    </Card>
  );
}
