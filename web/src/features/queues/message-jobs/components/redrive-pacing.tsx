import { MESSAGE_JOB_RATE_MAX, type ReturnGuard } from '@artemis-studio/contracts';
import { Checkbox, Group, NumberInput, Stack } from '@mantine/core';

/** What the console offers first for a return guard: a tenth back within a minute. */
const SUGGESTED_GUARD: ReturnGuard = { percent: 10, withinSeconds: 60 };

interface Props {
  /** The queue the messages go to, when there is one the job can watch. */
  destination: string | null;
  rate: number | string;
  onRate(rate: number | string): void;
  waitForConsumer: boolean;
  onWaitForConsumer(wait: boolean): void;
  guard: ReturnGuard | null;
  onGuard(guard: ReturnGuard | null): void;
}

/**
 * How a redrive goes: at most so many messages a second, only while the queue they go to has a
 * consumer, and no further once too many come back: a consumer that has just recovered is not
 * flooded, nothing lands where nobody reads, and a consumer still failing stops the redrive.
 */
export function RedrivePacing(props: Props) {
  const { destination, guard, onGuard } = props;
  const whole = (value: number | string, otherwise: number) =>
    typeof value === 'number' ? value : otherwise;
  return (
    <Stack gap="xs">
      <NumberInput
        label="At most (messages a second)"
        description="Empty: as fast as the broker allows. Paced in batches of about half a second."
        value={props.rate}
        onChange={props.onRate}
        min={1}
        max={MESSAGE_JOB_RATE_MAX}
        allowDecimal={false}
        w={260}
      />
      {destination && (
        <>
          <Checkbox
            label={`Wait for a consumer on ${destination}`}
            description="Before each batch: the job waits while the queue has no consumer or is paused, and says so"
            checked={props.waitForConsumer}
            onChange={(e) => props.onWaitForConsumer(e.currentTarget.checked)}
          />
          <Checkbox
            label="Pause if they come back"
            description={`When ${destination} dead-letters again more than a share of what the job sent, the job pauses itself`}
            checked={guard !== null}
            onChange={(e) => onGuard(e.currentTarget.checked ? SUGGESTED_GUARD : null)}
          />
          {guard && (
            <Group gap="sm">
              <NumberInput
                label="More than (%)"
                value={guard.percent}
                onChange={(v) => onGuard({ ...guard, percent: whole(v, guard.percent) })}
                min={1}
                max={100}
                allowDecimal={false}
                w={140}
              />
              <NumberInput
                label="Within (seconds)"
                value={guard.withinSeconds}
                onChange={(v) => onGuard({ ...guard, withinSeconds: whole(v, guard.withinSeconds) })}
                min={5}
                max={3600}
                allowDecimal={false}
                w={140}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
