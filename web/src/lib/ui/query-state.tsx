import { Alert, Center, Loader, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { describeError } from '../api-client';

/**
 * Loading, error and data for one query: an error shows the gateway's own words, never a blank
 * panel, and data already on screen stays there (marked by the indicator) when a refetch fails.
 */
export function QueryState<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending)
    return (
      <Center py="xl" aria-busy="true">
        <Loader size="sm" />
        <Text ml="sm" c="dimmed">
          Loading {what}…
        </Text>
      </Center>
    );
  if (query.data === undefined)
    return (
      <Alert color="red" title={`${what[0].toUpperCase()}${what.slice(1)} unavailable`} role="alert">
        {describeError(query.error)}
      </Alert>
    );
  return (
    <>
      {query.isError && (
        <Alert color="red" variant="light" mb="sm" role="alert">
          Showing the last {what} loaded; the refresh failed: {describeError(query.error)}
        </Alert>
      )}
      {children(query.data)}
    </>
  );
}
