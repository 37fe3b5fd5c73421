import type { StrandedMessages } from '@artemis-studio/contracts';
import { Alert, Code, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { STRANDED_WHY } from '../../../lib/queues/stranded-text';
import { formatNumber, formatTime } from '../../../lib/ui/format';
import { queuesAcrossNodesQueryOptions } from '../api/get-queues';
import { MessageJobDialog, type JobSelection } from '../message-jobs/components/message-job-dialog';

interface Props {
  clusterId: string;
  queue: string;
  /** The queue's address: with its name, it narrows the cluster's queues to this one's row. */
  address: string;
  /** Why this user may not move messages (role, read-only), or null. */
  refusal: string | null;
}

/** Whether the broker can take them to another node: only through a cluster connection that shares bindings. */
const movable = (s: StrandedMessages): string | null =>
  s.reason === 'not-clustered'
    ? `${s.node} is in no cluster connection: nothing links it to the consumers' node`
    : s.reason === 'no-shared-bindings'
      ? `${s.node}'s cluster connection has max-hops 0: it keeps no binding to the queue on other nodes`
      : null;

/**
 * The queue's messages waiting on a node without consumers while it has consumers on another:
 * how many, since when, why they stay, and the fix (a dry run counted by the broker, then a move
 * job through the cluster connection), with the address setting that would let the broker do it.
 */
export function StrandedMessagesNotice({ clusterId, queue, address, refusal }: Props) {
  const rows = useQuery(
    queuesAcrossNodesQueryOptions(clusterId, {
      page: 1,
      pageSize: 100,
      sort: 'name',
      order: 'asc',
      search: queue,
      address,
    }),
  );
  const [selection, setSelection] = useState<JobSelection | null>(null);
  const stranded = rows.data?.items.find((q) => q.name === queue)?.stranded ?? [];
  if (stranded.length === 0) return null;
  return (
    <>
      {stranded.map((s) => (
        <Alert
          key={s.node}
          color="orange"
          title={`${formatNumber(s.messages)} messages stranded on ${s.node}`}
          data-testid={`stranded-on-${s.node}`}
        >
          <Stack gap="xs">
            <Text size="sm">
              {s.node} has no consumer of {queue}; its consumers are on {s.consumersOn.join(', ')}. They have
              waited there since {formatTime(s.since)}: {STRANDED_WHY[s.reason]}.
            </Text>
            <Text size="xs" c="dimmed">
              {s.detail}
            </Text>
            <Group gap="xs">
              {s.consumersOn.map((to) => (
                <RefusableButton
                  key={to}
                  size="xs"
                  refusal={refusal ?? movable(s)}
                  onClick={() => setSelection({ kind: 'move', node: s.node, toNode: to })}
                >
                  Move them to {to}…
                </RefusableButton>
              ))}
            </Group>
            {s.suggestion && (
              <>
                <Text size="sm">So the broker moves them itself next time (broker.xml):</Text>
                <Code block>{s.suggestion}</Code>
              </>
            )}
          </Stack>
        </Alert>
      ))}
      <MessageJobDialog
        clusterId={clusterId}
        queue={queue}
        selection={selection}
        onClose={() => setSelection(null)}
      />
    </>
  );
}
