import { Alert, Button, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { describeError } from '../../../lib/api-client';
import { formatTime } from '../../../lib/ui/format';
import {
  readBodiesAgain,
  useEndUnmaskedWindow,
  useOpenUnmaskedWindow,
  useUnmaskedWindows,
} from '../api/unmasked-windows';

/**
 * Break-glass access to this queue's masked bodies (issue 62, item 3): in force, who has it, until
 * when and why, with "End now"; else, for an administrator, opening it for a few minutes with a
 * reason. When it ends by itself, the messages on screen are read again, masked.
 */
export function UnmaskedWindow({
  clusterId,
  queue,
  refusal,
}: {
  clusterId: string;
  queue: string;
  refusal: string | null;
}) {
  const windows = useUnmaskedWindows(clusterId);
  const end = useEndUnmaskedWindow(clusterId);
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const window = windows.data?.items.find((w) => w.queue === queue) ?? null;
  useEffect(() => {
    if (!window) return;
    const timer = setTimeout(
      () => void readBodiesAgain(queryClient, clusterId),
      Math.max(0, Date.parse(window.endsAt) - Date.now()) + 500,
    );
    return () => clearTimeout(timer);
  }, [window, queryClient, clusterId]);
  if (window)
    return (
      <Alert color="orange" title="Unmasked bodies in force" data-testid="unmasked-window">
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm">
            {window.user} sees this queue's bodies unmasked until {formatTime(window.endsAt)}: {window.reason}
            {window.ticket ? ` (${window.ticket})` : ''}. Each message seen is audited.
          </Text>
          <RefusableButton refusal={refusal} size="xs" color="orange" onClick={() => end.mutate(window.id)}>
            End now
          </RefusableButton>
        </Group>
      </Alert>
    );
  return (
    <>
      <Group justify="flex-end">
        <RefusableButton
          refusal={refusal}
          size="xs"
          variant="subtle"
          color="orange"
          onClick={() => setAsking(true)}
        >
          Open unmasked bodies…
        </RefusableButton>
      </Group>
      <OpenWindowModal clusterId={clusterId} queue={queue} opened={asking} close={() => setAsking(false)} />
    </>
  );
}

function OpenWindowModal(props: { clusterId: string; queue: string; opened: boolean; close(): void }) {
  const open = useOpenUnmaskedWindow(props.clusterId, props.queue);
  const [minutes, setMinutes] = useState<number | string>(15);
  const [reason, setReason] = useState('');
  const [ticket, setTicket] = useState('');
  return (
    <Modal opened={props.opened} onClose={props.close} title={`Unmasked bodies of ${props.queue}`}>
      <Stack>
        <Text size="sm">
          For you alone, for the minutes you choose: the masking rules are not applied to what you browse on
          this queue, and each message you see is audited by its id. Exports stay masked.
        </Text>
        <NumberInput label="Minutes" min={1} value={minutes} onChange={setMinutes} />
        <TextInput label="Why" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        <TextInput
          label="Ticket (optional)"
          value={ticket}
          onChange={(e) => setTicket(e.currentTarget.value)}
        />
        {open.isError && (
          <Alert color="red" role="alert">
            {describeError(open.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={props.close}>
            Cancel
          </Button>
          <Button
            color="orange"
            disabled={!reason.trim() || !Number(minutes)}
            loading={open.isPending}
            onClick={() =>
              void open
                .mutateAsync({
                  minutes: Number(minutes),
                  reason: reason.trim(),
                  ...(ticket.trim() ? { ticket: ticket.trim() } : {}),
                })
                .then(props.close)
                .catch(() => undefined)
            }
          >
            Open for {Number(minutes) || 0} min
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
