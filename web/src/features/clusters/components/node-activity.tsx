import { Card, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import {
  CLUSTER_RANGE_TEXT,
  CLUSTER_RANGES,
  latestOf,
  sparklinesOf,
  type ClusterRangeName,
  type NodeSparklines,
} from '../../../lib/metrics/chart-data';
import { formatNumber, formatRate } from '../../../lib/ui/format';
import { Sparkline } from '../../../lib/ui/sparkline';
import { useClusterMetrics } from '../../../lib/clusters/get-cluster-metrics';
import { TableHead } from '../../../lib/ui/table-head';

const NONE: readonly (number | null)[] = [];
const count = (v: number | null) => (v === null ? '—' : formatNumber(v));

/**
 * One row: a node's (or every node's) depth, messages in, connections and journal disk over the
 * range said in `when` (the disk a node's own: the row of every node has none).
 */
function ActivityRow({
  name,
  lines,
  of,
  when,
}: {
  name: string;
  lines: NodeSparklines | undefined;
  of: string;
  when: string;
}) {
  const depth = lines?.depth ?? NONE;
  const rate = lines?.inPerSecond ?? NONE;
  const connections = lines?.connections ?? NONE;
  const disk = lines?.diskPercent ?? NONE;
  const diskNow = latestOf(disk);
  return (
    <Table.Tr data-testid={`node-activity-${name}`}>
      <Table.Td fw={600}>{name}</Table.Td>
      <Table.Td>
        <Sparkline
          label={`Messages waiting on ${of}, ${when}`}
          values={depth}
          latest={count(latestOf(depth))}
        />
      </Table.Td>
      <Table.Td>
        <Sparkline
          label={`Messages in per second on ${of}, ${when}`}
          values={rate}
          latest={formatRate(latestOf(rate))}
          color="var(--mantine-color-teal-6)"
        />
      </Table.Td>
      <Table.Td>
        <Sparkline
          label={`Connections on ${of}, ${when}`}
          values={connections}
          latest={count(latestOf(connections))}
          color="var(--mantine-color-grape-6)"
        />
      </Table.Td>
      <Table.Td>
        <Sparkline
          label={`Journal disk used on ${of}, ${when}`}
          values={disk}
          latest={diskNow === null ? '—' : `${Math.round(diskNow)}%`}
          color="var(--mantine-color-orange-6)"
        />
      </Table.Td>
    </Table.Tr>
  );
}

/** Each node over the range at a glance, and all of them together where there is more than one. */
export function NodeActivity({
  clusterId,
  nodes,
  range,
}: {
  clusterId: string;
  nodes: string[];
  range: ClusterRangeName;
}) {
  const metrics = useClusterMetrics(clusterId, CLUSTER_RANGES[range]);
  const when = CLUSTER_RANGE_TEXT[range];
  const lines = useMemo(() => (metrics.data ? sparklinesOf(metrics.data) : undefined), [metrics.data]);
  return (
    <Card withBorder>
      <Text fw={600} size="sm" mb="xs">
        Each node, {when}
      </Text>
      <Table.ScrollContainer minWidth={600}>
        <Table aria-label={`Each node, ${when}`} verticalSpacing={4}>
          <TableHead columns={['Node', 'Messages waiting', 'In per second', 'Connections', 'Journal disk']} />
          <Table.Tbody>
            {nodes.map((name) => (
              <ActivityRow key={name} name={name} lines={lines?.get(name)} of={`node ${name}`} when={when} />
            ))}
            {nodes.length > 1 && (
              <ActivityRow name="All nodes" lines={lines?.get('total')} of="all nodes" when={when} />
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {metrics.isError && (
        <Text size="sm" c="red" role="alert">
          The {when} could not be read; the lines show what was read before.
        </Text>
      )}
    </Card>
  );
}
