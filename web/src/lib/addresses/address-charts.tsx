import { Card, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { formatTime } from '../ui/format';
import { QueryState } from '../ui/query-state';
import { TimeChart, type ChartMarker } from '../ui/time-chart';
import { addressChartData } from './address-chart-data';
import { useAddressMetrics } from './use-address-metrics';

/** The newest bucket is older than two buckets and a minute: the address is not sampled any more. */
const stale = (at: string | null, stepMs: number) =>
  at !== null && Date.now() - Date.parse(at) > 2 * stepMs + 60_000;

export interface AddressChartsProps {
  clusterId: string;
  address: string;
  rangeMs: number;
  /** Said in the titles: "last 1h". */
  rangeName: string;
  markers?: ChartMarker[];
  /** A limit rule's threshold, in percent, drawn on the limit chart. */
  limitThreshold?: number | null;
}

/**
 * An address's paging store over the window: bytes held in memory, and how full it is against its
 * own limit where the broker says, with its state now in words. An address fills and pages as a
 * whole, for all its queues: this is what "the queue is fine but the producers are blocked" needs.
 */
export function AddressCharts({
  clusterId,
  address,
  rangeMs,
  rangeName,
  markers = [],
  limitThreshold = null,
}: AddressChartsProps) {
  const metrics = useAddressMetrics(clusterId, address, rangeMs);
  const data = useMemo(() => (metrics.data ? addressChartData(metrics.data) : null), [metrics.data]);
  return (
    <Card withBorder data-testid="address-charts">
      <Text fw={600} size="sm">
        Address {address}, last {rangeName}
      </Text>
      <QueryState query={metrics} what="the address's charts">
        {() =>
          data && (
            <Stack gap="xs">
              <Text size="sm" c="dimmed" data-testid="address-state">
                {data.latest === null
                  ? 'Not sampled in this range.'
                  : stale(data.latestAt, metrics.data!.stepMs)
                    ? `Last sampled ${formatTime(data.latestAt)}: ${data.latest}.`
                    : `Now ${data.latest}.`}
              </Text>
              <Text size="xs" fw={600}>
                Held in memory
              </Text>
              <TimeChart
                times={data.times}
                span={data.span}
                series={data.size}
                markers={markers}
                unit="bytes"
                height={160}
                ariaLabel={`Bytes of address ${address} in memory, last ${rangeName}`}
              />
              {data.limitPeak !== null && data.limitPeak > 0 ? (
                <>
                  <Text size="xs" fw={600}>
                    Of its own size limit, as the broker gives it (the fullest node; full at 100%)
                  </Text>
                  <TimeChart
                    times={data.times}
                    span={data.span}
                    series={[
                      { label: 'limit %', color: '#fd7e14', values: data.limitPercent },
                      ...(limitThreshold !== null
                        ? [
                            {
                              label: 'threshold',
                              color: '#fa5252',
                              values: data.times.map(() => limitThreshold),
                            },
                          ]
                        : []),
                    ]}
                    markers={markers}
                    unit="%"
                    height={160}
                    ariaLabel={`Address ${address} against its size limit, last ${rangeName}`}
                  />
                </>
              ) : (
                <Text size="xs" c="dimmed">
                  {data.limitPeak === null
                    ? 'The broker gave no percentage of its size limit for this address.'
                    : 'At 0% of its own size limit throughout (an address without a limit of its own always reads 0).'}
                </Text>
              )}
            </Stack>
          )
        }
      </QueryState>
    </Card>
  );
}
