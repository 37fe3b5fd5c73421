import { Alert } from '@mantine/core';
import { describeError } from '../api-client';

/** A change that failed, in the gateway's own words, where the change was asked for. */
export function FailureAlert({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert">
      {describeError(error)}
    </Alert>
  );
}
