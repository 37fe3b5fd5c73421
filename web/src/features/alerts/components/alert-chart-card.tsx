import { Card, Stack, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { formatTime } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import type { ChartMarker } from '../../../lib/ui/time-chart';

/**
 * The card every alert's chart sits in: the figure's title, a note under it, the chart once its
 * query has data (its loading and errors said as everywhere), and the timeline's last moments in
 * words below, newest first, so the page reads without the chart.
 */
export function AlertChartCard<T>({
  title,
  note,
  query,
  what,
  moments = [],
  children,
}: {
  title: string;
  note?: string;
  query: UseQueryResult<T>;
  what: string;
  moments?: ChartMarker[];
  children: (data: T) => ReactNode;
}) {
  return (
    <Card withBorder data-testid="alert-chart">
      <Text fw={600} size="sm" mb="xs">
        {title}
      </Text>
      {note && (
        <Text size="xs" c="dimmed">
          {note}
        </Text>
      )}
      <QueryState query={query} what={what}>
        {children}
      </QueryState>
      {moments.length > 0 && (
        <Stack gap={2} mt="sm">
          {moments
            .slice(-12)
            .reverse()
            .map((m) => (
              <Text size="sm" key={`${m.t}-${m.label}`}>
                {formatTime(m.t * 1000)} — {m.label}
              </Text>
            ))}
        </Stack>
      )}
    </Card>
  );
}
