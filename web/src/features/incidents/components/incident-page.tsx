import { INCIDENT_MAX_DAYS, type Incident, type IncidentMoment } from '@artemis-studio/contracts';
import { Alert, Anchor, Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { getRouteApi, Link } from '@tanstack/react-router';
import { formatTime } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import { useIncident, type IncidentRange } from '../api/incident';
import { incidentMarkdown, type ChartImage } from '../incident-markdown';
import { IncidentCharts } from './incident-charts';

const route = getRouteApi('/clusters/$clusterId/incident');
const WIDEN_MS = 30 * 60_000;

const KIND_COLORS: Record<IncidentMoment['kind'], string> = {
  alert: 'red',
  action: 'violet',
  event: 'gray',
  unobserved: 'orange',
  role: 'cyan',
  drop: 'pink',
};

/** Offers a text as a file to save, without a round trip to the gateway. */
function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  link.click();
  URL.revokeObjectURL(url);
}

/** The charts on screen, as the PNGs the Markdown holds. */
function chartImages(): ChartImage[] {
  return [...document.querySelectorAll<HTMLElement>('[data-testid="incident-chart"]')].flatMap((card) => {
    const canvas = card.querySelector('canvas');
    return canvas ? [{ title: card.dataset.title ?? 'Chart', png: canvas.toDataURL('image/png') }] : [];
  });
}

const fileName = (incident: Incident, ext: string) =>
  `incident-${incident.clusterName.replace(/[^\w.-]+/g, '_')}-${incident.from.slice(0, 16).replace(':', '')}.${ext}`;

/**
 * A cluster's incident (issue 61, item 3): opened from an alert or over a range, its alerts, the
 * charts of their subjects and every moment on one ordered timeline, exported for the postmortem.
 */
export function IncidentPage() {
  const { clusterId } = route.useParams();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const range: IncidentRange = search.alert
    ? { alert: search.alert }
    : {
        from: search.from ?? new Date(Date.now() - 2 * WIDEN_MS).toISOString(),
        to: search.to ?? new Date().toISOString(),
      };
  const incident = useIncident(clusterId, range);
  const widen = (i: Incident, earlier: number, later: number) =>
    void navigate({
      search: {
        from: new Date(Date.parse(i.from) - earlier).toISOString(),
        to: new Date(Math.min(Date.now(), Date.parse(i.to) + later)).toISOString(),
      },
    });
  return (
    <Stack>
      <QueryState query={incident} what="the incident">
        {(i) => (
          <Stack>
            <Group justify="space-between" align="flex-end">
              <Stack gap={0}>
                <Title order={2}>Incident on {i.clusterName}</Title>
                <Text c="dimmed" data-testid="incident-range">
                  {formatTime(i.from)} to {formatTime(i.to)}
                </Text>
              </Stack>
              <Group>
                <Button variant="default" onClick={() => widen(i, WIDEN_MS, 0)}>
                  30 min earlier
                </Button>
                <Button variant="default" onClick={() => widen(i, 0, WIDEN_MS)}>
                  30 min later
                </Button>
                <Button
                  onClick={() =>
                    download(fileName(i, 'md'), 'text/markdown', incidentMarkdown(i, chartImages()))
                  }
                >
                  Export Markdown
                </Button>
                <Button
                  variant="light"
                  onClick={() =>
                    download(fileName(i, 'json'), 'application/json', `${JSON.stringify(i, null, 2)}\n`)
                  }
                >
                  Export JSON
                </Button>
              </Group>
            </Group>
            <Text size="sm" c="dimmed">
              The alerts open in the range, the broker events of their subjects, what people did, the periods
              Studio did not observe, lost events and failovers. An incident spans at most {INCIDENT_MAX_DAYS}{' '}
              days.
            </Text>
            {i.leftOut.length > 0 && (
              <Alert color="yellow" title="Not everything is on this timeline">
                {i.leftOut.map((why) => (
                  <Text size="sm" key={why}>
                    {why}
                  </Text>
                ))}
              </Alert>
            )}
            <Stack gap={4}>
              {i.alerts.map((a) => (
                <Anchor key={a.id} component={Link} to={`/clusters/${clusterId}/alerts/${a.id}`} size="sm">
                  {a.ruleName} on {a.subject} ({a.severity}, {a.state})
                </Anchor>
              ))}
            </Stack>
            <IncidentCharts incident={i} />
            <Table striped data-testid="incident-timeline">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Time</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th>Subject</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {i.moments.map((m, n) => (
                  <Table.Tr key={`${m.at}-${n}`} data-testid="incident-moment">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(m.at)}</Table.Td>
                    <Table.Td>
                      <Badge color={KIND_COLORS[m.kind]} variant="light">
                        {m.kind}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{m.subject ?? 'cluster'}</Table.Td>
                    <Table.Td>{m.text}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {i.moments.length === 0 && <Text c="dimmed">Nothing was recorded in this range.</Text>}
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
