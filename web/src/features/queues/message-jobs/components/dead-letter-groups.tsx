import { Anchor, Button, Card, Group, Table, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { RefusableButton } from '../../../../lib/access/refusable-button';
import { describeError } from '../../../../lib/api-client';
import { formatNumber, formatTime } from '../../../../lib/ui/format';
import { TableHead } from '../../../../lib/ui/table-head';
import { useDeadLetterGroups } from '../api/message-jobs';
import { countText, looksLikeDeadLetters } from '../job-text';
import { MessageJobDialog, type JobSelection } from './message-job-dialog';
import { originSelector, type BodyFilter } from '@artemis-studio/contracts';
import { BodyFilterField, isBodyFilterError } from '../../components/browse-filters';
import { ExportLink } from '../../components/export-link';

import { bodyScanText } from '../../message-text';

interface Props {
  clusterId: string;
  queue: string;
  /** Why this user may not retry (role, read-only), or null. */
  refusal: string | null;
}

/**
 * A dead-letter (or expiry) queue's messages by the queue they came from, each group with its
 * count as far as the broker counted, how long its first message has waited, and one action that
 * retries the group (into a quarantine first, if asked). Read at once for a queue named like a
 * DLQ; for any other, when asked.
 */
export function DeadLetterGroups({ clusterId, queue, refusal }: Props) {
  const [asked, setAsked] = useState(false);
  const shown = asked || looksLikeDeadLetters(queue);
  const [body, setBody] = useState<BodyFilter | null>(null);
  const groups = useDeadLetterGroups(clusterId, queue, body, shown);
  const [selection, setSelection] = useState<JobSelection | null>(null);
  const data = groups.data;
  const error = groups.isError ? describeError(groups.error) : null;
  const narrowed = data?.bodyFilter ? { bodyFilter: data.bodyFilter } : {};

  return (
    <Card withBorder data-testid="dead-letter-groups">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>Messages by origin</Text>
        <Group gap="xs">
          {data?.groups.some((g) => g.originQueue !== null) && (
            <RefusableButton
              refusal={refusal}
              size="xs"
              variant="light"
              onClick={() => setSelection({ kind: 'retry', ...narrowed })}
            >
              Retry all, each to its queue…
            </RefusableButton>
          )}
          <Button
            size="xs"
            variant="default"
            loading={groups.isFetching}
            onClick={() => (shown ? void groups.refetch() : setAsked(true))}
          >
            {shown ? 'Read again' : 'Group by origin'}
          </Button>
        </Group>
      </Group>
      {shown && (
        <Group mb="xs">
          <BodyFilterField
            value={body}
            error={isBodyFilterError(error) ? error : null}
            onChange={setBody}
            width={340}
          />
        </Group>
      )}
      {!shown ? (
        <Text size="sm" c="dimmed">
          Dead-lettered and expired messages carry the queue they came from: group them to retry one origin at
          a time.
        </Text>
      ) : groups.isError && !isBodyFilterError(error) ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : !data || groups.isError ? (
        <Text size="sm" c="dimmed">
          Asking the broker…
        </Text>
      ) : data.groups.length === 0 ? (
        <Text size="sm" c="dimmed">
          The queue is empty on node {data.node}.
        </Text>
      ) : (
        <>
          <Text size="sm" c="dimmed" mb="xs" data-testid="dead-letter-scope">
            {data.bodyScan
              ? `Grouped by Studio from its read of node ${data.node} for the body filter: ${bodyScanText(data.bodyScan)}.`
              : data.depth !== null && data.depth > data.scanned
                ? `Grouped by the broker from the first ${formatNumber(data.scanned)} of ${formatNumber(data.depth)} messages on node ${data.node} (it looks no further): each count is a lower bound; a retry takes the whole group.`
                : `All ${formatNumber(data.scanned)} messages on node ${data.node}.`}
          </Text>
          <Table aria-label="Messages by origin" fz="sm" verticalSpacing={4}>
            <TableHead columns={['Came from queue', 'Address', 'Messages', 'First sent', '']} />
            <Table.Tbody>
              {data.groups.map((g) => (
                <Table.Tr key={g.originQueue ?? '(none)'}>
                  <Table.Td>
                    {g.originQueue === null ? (
                      <Text size="sm" c="dimmed">
                        no origin recorded
                      </Text>
                    ) : g.originExists ? (
                      <Anchor
                        component={Link}
                        size="sm"
                        to={`/clusters/${clusterId}/queues/${encodeURIComponent(g.originQueue)}`}
                      >
                        {g.originQueue}
                      </Anchor>
                    ) : (
                      `${g.originQueue} (not on the broker now)`
                    )}
                  </Table.Td>
                  <Table.Td>{g.originAddress ?? '—'}</Table.Td>
                  <Table.Td>{countText(g.messages)}</Table.Td>
                  <Table.Td>{g.oldest ? formatTime(g.oldest) : '—'}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <ExportLink
                        clusterId={clusterId}
                        queue={queue}
                        selection={{ filter: originSelector(g.originQueue), body: data.bodyFilter }}
                        node={data.node}
                      />
                      {g.originQueue !== null && (
                        <RefusableButton
                          refusal={
                            refusal ??
                            (g.originExists ? null : 'the queue they came from is not on the broker now')
                          }
                          size="xs"
                          variant="light"
                          onClick={() => setSelection({ kind: 'retry', origin: g.originQueue!, ...narrowed })}
                        >
                          Retry group…
                        </RefusableButton>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </>
      )}
      <MessageJobDialog
        clusterId={clusterId}
        queue={queue}
        selection={selection}
        onClose={() => setSelection(null)}
      />
    </Card>
  );
}
