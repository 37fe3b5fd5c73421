import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { TimeChart, type ChartMarker, type UsualBandStretch } from '../ui/time-chart';
import type { chartData } from './chart-data';

export interface MetricChartsProps {
  data: ReturnType<typeof chartData>;
  markers: ChartMarker[];
  onMarker(index: number): void;
  /** Said in each chart's title and accessible name: "last hour", "of orders.in, last 1h". */
  depthTitle: string;
  ratesTitle: string;
  subject: string;
  /** Side by side (the overview) or one under the other (a queue's page). */
  layout: 'grid' | 'stack';
  height?: number;
  /**
   * A queue's page: the depth chart also draws the messages in delivery, and a third chart how
   * long the oldest message has waited.
   */
  queueFigures?: boolean;
  /**
   * A queue's usual band behind its depth (ADR-0039), hour by hour; `note` says what it is, or why
   * there is none (unknown stays unknown, said, never drawn as zero).
   */
  band?: { stretches: UsualBandStretch[]; note: string };
}

/** Depth, and messages in and acknowledged per second, over one window with the same markers. */
export function MetricCharts({
  data,
  markers,
  onMarker,
  depthTitle,
  ratesTitle,
  subject,
  layout,
  height,
  queueFigures = false,
  band,
}: MetricChartsProps) {
  const lastDepth = data.depth[0]?.values.at(-1);
  const charts = [
    {
      title: queueFigures ? `${depthTitle}, and in delivery` : depthTitle,
      series: queueFigures ? [...data.depth, data.delivering] : data.depth,
      unit: 'messages',
      label: `Depth ${subject}`,
      note: band?.note,
      bands: band?.stretches,
    },
    { title: ratesTitle, series: data.rates, unit: 'per second', label: `Rates ${subject}` },
    ...(queueFigures
      ? [
          {
            title: 'How long the oldest waiting message has waited',
            series: [data.oldest],
            unit: 'seconds',
            label: `Oldest message's wait ${subject}`,
            // An empty chart alone reads as broken: say why nothing is drawn.
            empty: data.oldest.values.every((v) => v === null)
              ? 'Nothing waited in this range: the queue was empty at every sample, or the broker dated no message.'
              : undefined,
          },
        ]
      : []),
  ].map((chart, i) => (
    <Card
      key={chart.title}
      withBorder
      // Read by the browser tests: the newest depth the chart shows.
      {...(i === 0 ? { 'data-testid': 'depth-chart', 'data-last-depth': lastDepth ?? '' } : {})}
    >
      <Text fw={600} size="sm" mb="xs">
        {chart.title}
      </Text>
      {'note' in chart && chart.note && (
        <Text size="xs" c="dimmed" data-testid="band-note">
          {chart.note}
        </Text>
      )}
      {'empty' in chart && chart.empty && (
        <Text size="xs" c="dimmed" data-testid="chart-empty">
          {chart.empty}
        </Text>
      )}
      <TimeChart
        times={data.times}
        span={data.span}
        series={chart.series}
        markers={markers}
        onMarker={onMarker}
        unit={chart.unit}
        height={height}
        ariaLabel={chart.label}
        bands={'bands' in chart ? chart.bands : undefined}
      />
    </Card>
  ));
  return layout === 'grid' ? <SimpleGrid cols={2}>{charts}</SimpleGrid> : <Stack>{charts}</Stack>;
}
