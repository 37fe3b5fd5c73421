import { Alert, Badge, Button, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useState } from 'react';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { describeError } from '../../../lib/api-client';
import { useProtect, useProtectionOf } from '../../../lib/clusters/protections';

/**
 * The queue's protection (issue 62, item 2): a badge saying why when a pattern covers it, or, for
 * an administrator, the queue marked protected by its own name, with a reason.
 */
export function ProtectQueueButton({
  clusterId,
  queue,
  refusal,
}: {
  clusterId: string;
  queue: string;
  refusal: string | null;
}) {
  const protection = useProtectionOf(clusterId, queue);
  const protect = useProtect(clusterId);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  if (protection)
    return (
      <Tooltip label={`'${protection.pattern}': ${protection.reason}`}>
        <Badge color="yellow" variant="light" size="lg" data-testid="queue-protected">
          Protected
        </Badge>
      </Tooltip>
    );
  return (
    <>
      <RefusableButton refusal={refusal} variant="light" color="gray" onClick={() => setOpen(true)}>
        Protect…
      </RefusableButton>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Protect ${queue}`}>
        <Stack>
          <Text size="sm">
            A purge or deleting its messages will need an administrator of the cluster and a reason; deleting
            the queue is refused until the protection is lifted in the cluster's settings.
          </Text>
          <TextInput
            label="Why it is protected"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          {protect.isError && (
            <Alert color="red" role="alert">
              {describeError(protect.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              disabled={!reason.trim()}
              loading={protect.isPending}
              onClick={() =>
                void protect
                  .mutateAsync({ pattern: queue, reason: reason.trim() })
                  .then(() => setOpen(false))
                  .catch(() => undefined)
              }
            >
              Protect {queue}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
