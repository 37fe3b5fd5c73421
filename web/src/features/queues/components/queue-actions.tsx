import { TYPED_CONFIRMATION_THRESHOLD, type QueueRow } from '@artemis-studio/contracts';
import { Alert, Button, Checkbox, Group, List, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useAbilities } from '../../../lib/access/me';
import { showOutcome } from './show-outcome';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { describeError } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/ui/format';
import { useQueueAction, useQueueImpact } from '../api/queue-actions';
import { ImportMessagesButton } from './import-messages-button';
import { SendMessageButton } from './send-message-button';
import { ProtectQueueButton } from './protect-queue-button';
import { actionRefusal } from '../action-refusal';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { DESTRUCTIVE_WORDS, describeNode, messages, statement, type Destructive } from '../action-text';
import { useProtectionOf } from '../../../lib/clusters/protections';

interface Props {
  clusterId: string;
  cluster: { name: string; readOnly: boolean };
  queue: string;
  /** The queue on each node, as last observed: whether it is paused anywhere. */
  rows: readonly QueueRow[];
}

/**
 * Pause, resume, purge and delete, for an operator. A purge or a delete first asks the broker what
 * it would remove and says so in the confirmation; past TYPED_CONFIRMATION_THRESHOLD messages the
 * queue's name must be typed. One idempotency key per confirmation: a retried click acts once.
 */
export function QueueActions({ clusterId, cluster, queue, rows }: Props) {
  const can = useAbilities();
  const action = useQueueAction(clusterId, queue);
  const impact = useQueueImpact(clusterId, queue);
  const [confirming, setConfirming] = useState<{ action: Destructive; key: string } | null>(null);
  const [pausing, setPausing] = useState<{ key: string; persist: boolean } | null>(null);
  const [typed, setTyped] = useState('');
  const [reason, setReason] = useState('');
  const protection = useProtectionOf(clusterId, queue);
  const refusal = actionRefusal(can, cluster);
  const paused = rows.some((r) => r.paused);

  const run = async (request: Parameters<typeof action.mutateAsync>[0], verb: string) => {
    const result = await action.mutateAsync(request);
    showOutcome(`${queue} ${verb}`, result.nodes);
    return result;
  };
  const open = (which: Destructive) => {
    setTyped('');
    setReason('');
    action.reset();
    setConfirming({ action: which, key: newIdempotencyKey() });
    impact.mutate(which);
  };
  const close = () => {
    setConfirming(null);
    impact.reset();
  };
  const total = impact.data?.messages ?? 0;
  const mustType = total > TYPED_CONFIRMATION_THRESHOLD;
  // A protected queue is never deleted, and purged only by an administrator who says why.
  const blocked =
    protection !== null && confirming !== null && (confirming.action === 'delete' || !reason.trim());

  return (
    <>
      <Group gap="xs" aria-label="Queue actions">
        {paused ? (
          <RefusableButton
            refusal={refusal}
            variant="light"
            loading={action.isPending && action.variables?.action === 'resume'}
            onClick={() =>
              void run({ action: 'resume', idempotencyKey: newIdempotencyKey() }, 'resumed').catch(
                () => undefined,
              )
            }
          >
            Resume queue
          </RefusableButton>
        ) : (
          <RefusableButton
            refusal={refusal}
            variant="light"
            onClick={() => setPausing({ key: newIdempotencyKey(), persist: false })}
          >
            Pause queue…
          </RefusableButton>
        )}
        <SendMessageButton clusterId={clusterId} queue={queue} address={rows[0]?.address} refusal={refusal} />
        <ImportMessagesButton clusterId={clusterId} queue={queue} refusal={refusal} />
        <RefusableButton refusal={refusal} variant="light" onClick={() => open('retry')}>
          Retry…
        </RefusableButton>
        <RefusableButton refusal={refusal} variant="light" color="orange" onClick={() => open('purge')}>
          Purge…
        </RefusableButton>
        <RefusableButton refusal={refusal} variant="light" color="red" onClick={() => open('delete')}>
          Delete queue…
        </RefusableButton>
        <ProtectQueueButton
          clusterId={clusterId}
          queue={queue}
          refusal={can.refusal(cluster.name, 'admin')}
        />
      </Group>
      {action.isError && !confirming && !pausing && (
        <Alert color="red" role="alert" mt="xs" withCloseButton onClose={() => action.reset()}>
          {describeError(action.error)}
        </Alert>
      )}

      <Modal opened={pausing !== null} onClose={() => setPausing(null)} title={`Pause ${queue}`}>
        <Stack>
          <Text size="sm">
            Consumers stop receiving from this queue on every live node; messages still arrive.
          </Text>
          <Checkbox
            label="Stay paused after a broker restart"
            checked={pausing?.persist ?? false}
            onChange={(e) => pausing && setPausing({ ...pausing, persist: e.currentTarget.checked })}
          />
          {action.isError && <Alert color="red">{describeError(action.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPausing(null)}>
              Cancel
            </Button>
            <Button
              loading={action.isPending}
              onClick={() =>
                pausing &&
                void run({ action: 'pause', persist: pausing.persist, idempotencyKey: pausing.key }, 'paused')
                  .then(() => setPausing(null))
                  .catch(() => undefined)
              }
            >
              Pause
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal
        opened={confirming !== null}
        onClose={close}
        title={confirming ? `${DESTRUCTIVE_WORDS[confirming.action].title} ${queue}` : ''}
      >
        <Stack data-testid="queue-action-confirmation">
          {impact.isPending && <Text size="sm">Asking the broker how many messages this would remove…</Text>}
          {impact.isError && (
            <Alert color="red" role="alert">
              The broker could not count them, so nothing is offered: {describeError(impact.error)}
            </Alert>
          )}
          {confirming && impact.data && (
            <>
              <Text fw={600}>{statement(confirming.action, queue, impact.data)}</Text>
              <List size="sm">
                {impact.data.nodes.map((n) => (
                  <List.Item key={n.node}>{describeNode(n)}</List.Item>
                ))}
              </List>
              <Text size="sm" c="dimmed">
                Counted by the broker just now; messages that arrive before you confirm are taken too.
                {confirming.action === 'delete' ? ' A queue with consumers is refused by the broker.' : ''}
              </Text>
              {mustType && (
                <TextInput
                  label={`Type the queue's name to confirm (more than ${formatNumber(TYPED_CONFIRMATION_THRESHOLD)} messages)`}
                  value={typed}
                  onChange={(e) => setTyped(e.currentTarget.value)}
                />
              )}
            </>
          )}
          {confirming && protection && (
            <Alert
              color="yellow"
              title={`Protected by '${protection.pattern}'`}
              data-testid="protected-queue"
            >
              {protection.reason}.{' '}
              {confirming.action === 'delete'
                ? "It cannot be deleted until an administrator lifts its protection in the cluster's settings."
                : 'Only an administrator of the cluster may purge it, saying why.'}
            </Alert>
          )}
          {confirming && protection && confirming.action !== 'delete' && (
            <TextInput
              label="Why (kept in the audit trail)"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
            />
          )}
          {action.isError && (
            <Alert color="red" role="alert">
              {describeError(action.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red"
              disabled={!impact.data || (mustType && typed !== queue) || blocked}
              loading={action.isPending}
              onClick={() =>
                confirming &&
                void run(
                  {
                    action: confirming.action,
                    idempotencyKey: confirming.key,
                    ...(protection ? { reason: reason.trim() } : {}),
                  },
                  DESTRUCTIVE_WORDS[confirming.action].done,
                )
                  .then(close)
                  .catch(() => undefined)
              }
            >
              {confirming ? DESTRUCTIVE_WORDS[confirming.action].button(messages(total)) : ''}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
