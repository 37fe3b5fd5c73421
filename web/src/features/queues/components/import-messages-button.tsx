import { Alert, FileInput, NumberInput, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { describeError } from '../../../lib/api-client';
import { formatNumber } from '../../../lib/ui/format';
import { useImportMessages } from '../api/import-messages';
import { ActionFormButton } from './action-form-button';

/**
 * "Import NDJSON…": an export's file sent back to this queue. Choosing the file checks every line
 * (the gateway's dry run: nothing is sent) and says what would go where; the import is then one
 * request per opening (its Idempotency-Key), at a rate when one is given.
 */
export function ImportMessagesButton({
  clusterId,
  queue,
  refusal,
}: {
  clusterId: string;
  queue: string;
  refusal: string | null;
}) {
  const check = useImportMessages(clusterId, queue);
  const run = useImportMessages(clusterId, queue);
  const [file, setFile] = useState<string | null>(null);
  const [rate, setRate] = useState<number | ''>('');
  const checked = check.data;
  const choose = async (chosen: File | null) => {
    check.reset();
    const text = chosen ? await chosen.text() : null;
    setFile(text);
    if (text !== null) check.mutate({ file: text, dryRun: true });
  };
  return (
    <ActionFormButton
      label="Import NDJSON…"
      refusal={refusal}
      title={`Import messages into ${queue}`}
      submitLabel={checked ? `Import ${formatNumber(checked.messages)} messages` : 'Import'}
      canSubmit={file !== null && checked !== undefined}
      mutation={{
        isPending: run.isPending,
        error: run.error,
        reset: () => {
          run.reset();
          check.reset();
          setFile(null);
        },
      }}
      submit={async (idempotencyKey) => {
        const done = await run.mutateAsync({
          file: file!,
          dryRun: false,
          idempotencyKey,
          ...(typeof rate === 'number' ? { rate } : {}),
        });
        notifications.show({
          color: 'green',
          title: `Imported ${formatNumber(done.imported)} messages into ${queue}`,
          message: `on ${done.node}, each as it was exported`,
        });
      }}
    >
      <FileInput
        label="An export of Studio (NDJSON)"
        placeholder="Choose a file"
        accept=".ndjson,.jsonl,application/x-ndjson"
        onChange={(chosen) => void choose(chosen)}
        clearable
      />
      {check.isPending && <Text size="sm">Checking every line…</Text>}
      {check.isError && <Alert color="red">{describeError(check.error)}</Alert>}
      {checked && (
        <Text size="sm" data-testid="import-checked">
          {`${formatNumber(checked.messages)} messages, every line checked: they would go to ${queue} on ${checked.node}.`}
          {checked.leftOut.masked + checked.leftOut.broker > 0 &&
            ` Left out: ${checked.leftOut.masked} masked properties, ${checked.leftOut.broker} of the broker's own.`}
        </Text>
      )}
      <NumberInput
        label="Rate (messages a second)"
        description="Empty: as fast as the broker takes them"
        min={1}
        max={10_000}
        value={rate}
        onChange={(v) => setRate(typeof v === 'number' ? v : '')}
      />
    </ActionFormButton>
  );
}
