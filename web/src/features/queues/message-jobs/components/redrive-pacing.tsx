import { MESSAGE_JOB_RATE_MAX } from '@artemis-studio/contracts';
import { Checkbox, NumberInput, Stack } from '@mantine/core';

interface Props {
  /** The queue the messages go to, when there is one the job can wait for a consumer on. */
  destination: string | null;
  rate: number | string;
  onRate(rate: number | string): void;
  waitForConsumer: boolean;
  onWaitForConsumer(wait: boolean): void;
}

/**
 * How a redrive goes: at most so many messages a second, and only while the queue they go to has
 * a consumer, so a consumer that has just recovered is not flooded and nothing lands where nobody
 * reads.
 */
export function RedrivePacing({ destination, rate, onRate, waitForConsumer, onWaitForConsumer }: Props) {
  return (
    <Stack gap="xs">
      <NumberInput
        label="At most (messages a second)"
        description="Empty: as fast as the broker allows. Paced in batches of about half a second."
        value={rate}
        onChange={onRate}
        min={1}
        max={MESSAGE_JOB_RATE_MAX}
        allowDecimal={false}
        w={260}
      />
      {destination && (
        <Checkbox
          label={`Wait for a consumer on ${destination}`}
          description="Before each batch: the job waits while the queue has no consumer or is paused, and says so"
          checked={waitForConsumer}
          onChange={(e) => onWaitForConsumer(e.currentTarget.checked)}
        />
      )}
    </Stack>
  );
}
