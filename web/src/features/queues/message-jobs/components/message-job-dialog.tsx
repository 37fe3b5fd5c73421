import {
  TYPED_CONFIRMATION_THRESHOLD,
  selectionProblem,
  type BodyFilter,
  type MessageJobBodyInput,
  type MessageJobKind,
  type ReturnGuard,
} from '@artemis-studio/contracts';
import { Alert, Button, Checkbox, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { describeError } from '../../../../lib/api-client';
import { newIdempotencyKey } from '../../../../lib/idempotency-key';
import { formatNumber } from '../../../../lib/ui/format';
import { useMessageJobImpact, useStartMessageJob } from '../api/message-jobs';
import { countText, jobStatement, KIND_WORDS } from '../job-text';
import { bodyScanText } from '../../message-text';
import { RedrivePacing } from './redrive-pacing';

/** What the operator chose to act on: chosen messages, a dead-letter group, or a filter (or all). */
export interface JobSelection {
  kind: MessageJobKind;
  messageIds?: string[];
  node?: string;
  filter?: string;
  /** Only the messages whose bodies this matches, read once by the owner (ADR-0038). */
  bodyFilter?: BodyFilter;
  origin?: string;
  /** A move of `node`'s messages to the same queue on this node (stranded messages). */
  toNode?: string;
  /** The queue a move offers first (a quarantine's release names its origin). */
  to?: string;
}

interface Props {
  clusterId: string;
  queue: string;
  /** The job to confirm; null while the dialog is closed. */
  selection: JobSelection | null;
  onClose(): void;
}

/**
 * The confirmation of a message job: the broker's count first (a lower bound said as one), where
 * the messages go (a queue to type for a move, a quarantine offered for a redrive), the queue's
 * name typed past TYPED_CONFIRMATION_THRESHOLD, and one Idempotency-Key per opening.
 */
export function MessageJobDialog({ clusterId, queue, selection, onClose }: Props) {
  const impact = useMessageJobImpact(clusterId, queue);
  const start = useStartMessageJob(clusterId, queue);
  const [key, setKey] = useState('');
  const [to, setTo] = useState('');
  const [quarantined, setQuarantined] = useState(false);
  const [quarantine, setQuarantine] = useState('');
  const [typed, setTyped] = useState('');
  const [rate, setRate] = useState<number | string>('');
  const [waitForConsumer, setWaitForConsumer] = useState(false);
  const [guard, setGuard] = useState<ReturnGuard | null>(null);

  useEffect(() => {
    if (!selection) return;
    setKey(newIdempotencyKey());
    setTo(selection.to ?? '');
    setTyped('');
    setQuarantined(false);
    setRate('');
    setWaitForConsumer(false);
    setGuard(null);
    setQuarantine(selection.origin !== undefined ? `${selection.origin}.quarantine` : `${queue}.quarantine`);
    start.reset();
    impact.reset();
    if (!selection.messageIds)
      impact.mutate({
        kind: selection.kind,
        filter: selection.filter,
        ...(selection.bodyFilter
          ? { body: selection.bodyFilter.expression, bodyMatch: selection.bodyFilter.match }
          : {}),
        origin: selection.origin,
        ...(selection.toNode ? { node: selection.node } : {}),
      });
    // Once per opening, not per render: the mutations change identity as they run.
  }, [selection]);

  if (!selection) return null;
  const { kind } = selection;
  const chosen = selection.messageIds?.length;
  const toNode = selection.toNode;
  // A rate for every job but a move to another node (the cluster link sets its pace); a start
  // gate and a return guard where one queue receives the messages.
  const paced = !toNode;
  const destination = quarantined
    ? null
    : kind === 'move'
      ? to.trim() || null
      : kind === 'retry'
        ? (selection.origin ?? null)
        : null;
  const body: MessageJobBodyInput = {
    ...(selection.messageIds ? { messageIds: selection.messageIds, node: selection.node } : {}),
    ...(toNode ? { node: selection.node, toNode } : {}),
    ...(selection.filter ? { filter: selection.filter } : {}),
    ...(selection.bodyFilter ? { bodyFilter: selection.bodyFilter } : {}),
    ...(selection.origin !== undefined ? { origin: selection.origin } : {}),
    ...((kind === 'move' || kind === 'copy') && to.trim() ? { to: to.trim() } : {}),
    ...(quarantined && quarantine.trim() ? { quarantine: quarantine.trim() } : {}),
    ...(paced && typeof rate === 'number' ? { rate } : {}),
    ...(paced && destination && waitForConsumer ? { waitForConsumer: true } : {}),
    ...(paced && destination && guard ? { pauseOnReturns: guard } : {}),
  };
  const problem = selectionProblem({ ...body, kind });
  const target = body.quarantine ?? body.to ?? null;
  const statement = jobStatement(kind, queue, {
    chosen,
    impact: impact.data,
    filter: selection.filter,
    bodyFilter: selection.bodyFilter,
    origin: selection.origin,
    target,
    quarantine: body.quarantine !== undefined,
    nodeMove: toNode && selection.node ? { from: selection.node, to: toNode } : undefined,
  });
  const total = chosen ?? impact.data?.messages.count ?? 0;
  const mustType = total > TYPED_CONFIRMATION_THRESHOLD || impact.data?.messages.atLeast === true;
  const counted = chosen !== undefined || impact.data !== undefined;

  const submit = () =>
    void start
      .mutateAsync({ kind, body, idempotencyKey: key })
      .then((job) => {
        notifications.show({
          color: 'blue',
          title: `${KIND_WORDS[kind].title} started`,
          message: `${statement}: its progress is under Message jobs`,
        });
        onClose();
        return job;
      })
      .catch(() => undefined);

  return (
    <Modal opened onClose={onClose} title={`${KIND_WORDS[kind].title} messages of ${queue}`} size="lg">
      <Stack data-testid="message-job-confirmation">
        {impact.isPending && <Text size="sm">Asking the broker how many messages this would touch…</Text>}
        {impact.isError && (
          <Alert color="red" role="alert">
            The broker could not count them, so nothing is offered: {describeError(impact.error)}
          </Alert>
        )}
        {counted && (
          <>
            <Text fw={600} data-testid="message-job-statement">
              {statement}?
            </Text>
            {impact.data && impact.data.nodes.length > 1 && (
              <List size="sm">
                {impact.data.nodes.map((n) => (
                  <List.Item key={n.node}>
                    {n.node}: {countText(n.messages)}
                  </List.Item>
                ))}
              </List>
            )}
            {impact.data?.bodyScan && (
              <Text size="sm" c="dimmed" data-testid="message-job-scan">
                Read once for its body filter: {bodyScanText(impact.data.bodyScan)}. The job reads the queue
                again as it starts and takes what matches then, by id.
              </Text>
            )}
            {impact.data?.messages.atLeast && !impact.data.bodyScan && (
              <Text size="sm" c="dimmed">
                For a filter the broker looks at the first {formatNumber(impact.data.browseLimit ?? 0)}{' '}
                messages only; every matching message is {KIND_WORDS[kind].done}, however many there are.
              </Text>
            )}
            {chosen !== undefined && (
              <Text size="sm" c="dimmed">
                The broker finds a message by id only while it is in memory: a paged-out one is reported as
                not reached.
              </Text>
            )}
          </>
        )}
        {toNode && (
          <Text size="sm" c="dimmed">
            The broker hands them to its cluster connection's link towards {toNode}, which delivers them to{' '}
            {queue} there; each gets a new id.
          </Text>
        )}
        {(kind === 'move' || kind === 'copy') && !quarantined && !toNode && (
          <TextInput
            label="To queue"
            description="A queue on the same broker; a move gives each message a new id"
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
            data-autofocus
          />
        )}
        {!chosen && !toNode && !selection.to && kind !== 'delete' && kind !== 'copy' && (
          <Checkbox
            label="Into a quarantine queue first, so it can be undone"
            description="The messages wait there; a retry from it sends them back here, a move sends them on"
            checked={quarantined}
            onChange={(e) => setQuarantined(e.currentTarget.checked)}
          />
        )}
        {quarantined && (
          <TextInput
            label="Quarantine queue"
            description="Made when missing"
            value={quarantine}
            onChange={(e) => setQuarantine(e.currentTarget.value)}
          />
        )}
        {paced && (
          <RedrivePacing
            destination={destination}
            rate={rate}
            onRate={setRate}
            waitForConsumer={waitForConsumer}
            onWaitForConsumer={setWaitForConsumer}
            guard={guard}
            onGuard={setGuard}
          />
        )}
        {counted && mustType && (
          <TextInput
            label={`Type the queue's name to confirm (more than ${formatNumber(TYPED_CONFIRMATION_THRESHOLD)} messages, or a count the broker could not finish)`}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
          />
        )}
        {start.isError && (
          <Alert color="red" role="alert">
            {describeError(start.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color={kind === 'delete' ? 'red' : 'blue'}
            disabled={!counted || problem !== null || (mustType && typed !== queue)}
            title={problem ?? undefined}
            loading={start.isPending}
            onClick={submit}
          >
            {KIND_WORDS[kind].title}{' '}
            {chosen !== undefined ? formatNumber(chosen) : impact.data ? countText(impact.data.messages) : ''}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
