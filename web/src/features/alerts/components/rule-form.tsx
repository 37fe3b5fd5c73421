import {
  ALERT_RULE_KINDS,
  ALERT_SEVERITIES,
  ALERT_THRESHOLD_UNIT,
  shownFigure,
  subjectKindOf,
  type AlertRule,
  type AlertRuleKind,
  type AlertRuleTest,
  type AlertSeverity,
} from '@artemis-studio/contracts';
import {
  Button,
  Card,
  Group,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { formatTime } from '../../../lib/ui/format';
import { useSaveRule, useTestRule } from '../api/alerts';
import { labelLines, parseLabelLines } from '../label-lines';

const KIND_LABELS: Record<AlertRuleKind, string> = {
  'queue-depth': 'Queue: depth above',
  'queue-depth-baseline': 'Queue: depth above its usual band for the hour, times',
  'queue-oldest-message': 'Queue: oldest message older than',
  'queue-no-consumers': 'Queue: messages and no consumer',
  'queue-growing-unconsumed': 'Queue: messages arriving, no consumer',
  'queue-stuck-consumer': 'Queue: stuck consumer (nothing acknowledged)',
  'queue-stranded': 'Queue: messages stranded on a node without consumers',
  'queue-receiving': 'Queue: receiving messages (DLQ, expiry)',
  'queue-killed-rate': 'Queue: dead-lettered per second above',
  'queue-expired-rate': 'Queue: expired per second above',
  'address-paging': 'Address: paging',
  'address-limit': 'Address: fuller than, of its size limit',
  'address-full-forecast': 'Address: reaches its size limit within',
  'link-down': 'Cluster link: connection stopped or not connected to a member',
  'link-backlog': 'Cluster link: holds messages and delivers none for',
  'link-node-left': 'Cluster link: node missing from another node’s topology',
  'node-unreachable': 'Node: unreachable',
  'node-backup-unsynced': 'Node: backup not in sync',
  'node-disk-usage': 'Node: journal disk fuller than',
  'node-address-memory': 'Node: address memory fuller than',
  'node-disk-full-forecast': "Node: journal disk reaches the broker's limit within",
  'node-role-changed': 'Node: failover or failback, in the last',
  'studio-notifications-unavailable': 'Studio: broker events cannot be subscribed to',
  'studio-events-dropped': 'Studio: broker events lost, in the last',
  'studio-notifier-unowned': 'Studio: no notifier holds the cluster',
  'studio-scraper-unowned': 'Studio: no scraper polls the cluster',
  'studio-unobserved': 'Studio: notifications went unobserved, in the last',
  'studio-redrive-paused': 'Studio: a redrive paused on bounce-back, in the last',
};

const SUBJECTS_LABEL = {
  queue: 'Queues',
  address: 'Addresses',
  node: 'Nodes',
  link: 'Links (node/connection, node → member, or node)',
  studio: 'Subject (notifications, events, notifier, scraper or observation)',
} as const;

const THRESHOLD_LABEL = {
  messages: 'messages',
  seconds: 'seconds',
  'per second': 'per second',
  fraction: '% full',
  times: 'times its usual top',
};

/** A rule's fields; a fraction is typed as a percentage, as people say it. */
export function RuleForm({
  clusterId,
  rule,
  onDone,
}: {
  clusterId: string;
  rule?: AlertRule;
  onDone: () => void;
}) {
  const save = useSaveRule(clusterId);
  const [name, setName] = useState(rule?.name ?? '');
  const [kind, setKind] = useState<AlertRuleKind>(rule?.kind ?? 'queue-depth');
  const [subjects, setSubjects] = useState(rule?.subjects ?? '*');
  const unit = ALERT_THRESHOLD_UNIT[kind];
  const [threshold, setThreshold] = useState<number | string>(
    rule?.threshold == null ? '' : unit === 'fraction' ? rule.threshold * 100 : rule.threshold,
  );
  const [forSeconds, setForSeconds] = useState<number | string>(rule?.forSeconds ?? 60);
  const [severity, setSeverity] = useState<AlertSeverity>(rule?.severity ?? 'warning');
  const [description, setDescription] = useState(rule?.description ?? '');
  const [labelText, setLabelText] = useState(labelLines(rule?.labels ?? {}));
  const parsedLabels = parseLabelLines(labelText);

  const test = useTestRule(clusterId);
  const drafted = () => {
    const value = unit === null || threshold === '' ? null : Number(threshold);
    return {
      name,
      kind,
      subjects,
      threshold: value !== null && unit === 'fraction' ? value / 100 : value,
      forSeconds: Number(forSeconds) || 0,
      severity,
      labels: 'labels' in parsedLabels ? parsedLabels.labels : (rule?.labels ?? {}),
      description,
      enabled: rule?.enabled ?? true,
    };
  };
  const submit = () => save.mutate({ id: rule?.id, rule: drafted() }, { onSuccess: onDone });

  return (
    <Card withBorder role="form" aria-label={rule ? `Change rule ${rule.name}` : 'New alert rule'}>
      <Stack>
        <Text fw={600}>{rule ? `Change ${rule.name}` : 'New rule'}</Text>
        <Group grow align="flex-start">
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Select
            label="When"
            data={ALERT_RULE_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
            value={kind}
            onChange={(v) => v && setKind(v as AlertRuleKind)}
            allowDeselect={false}
          />
          {unit !== null && (
            <NumberInput
              label={`Threshold (${THRESHOLD_LABEL[unit]})`}
              required
              min={0}
              max={unit === 'fraction' ? 100 : undefined}
              value={threshold}
              onChange={setThreshold}
            />
          )}
        </Group>
        <Group grow align="flex-start">
          <TextInput
            label={SUBJECTS_LABEL[subjectKindOf(kind)]}
            description="Names; * matches any run of characters"
            value={subjects}
            onChange={(e) => setSubjects(e.currentTarget.value)}
          />
          <NumberInput
            label="For (seconds)"
            description="Pending until the condition has held this long"
            min={0}
            value={forSeconds}
            onChange={setForSeconds}
          />
          <Select
            label="Severity"
            data={[...ALERT_SEVERITIES]}
            value={severity}
            onChange={(v) => v && setSeverity(v as AlertSeverity)}
            allowDeselect={false}
          />
        </Group>
        <TextInput
          label="Description"
          description="Empty for the kind's own sentence; {{subject}}, {{value}} and {{threshold}} are filled in"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Textarea
          label="Labels"
          description="One per line as name=value, e.g. team=payments: sent with every notification of the rule's alerts (Alertmanager routes by them)"
          autosize
          minRows={1}
          value={labelText}
          error={'error' in parsedLabels ? parsedLabels.error : undefined}
          onChange={(e) => setLabelText(e.currentTarget.value)}
        />
        <FailureAlert error={save.error ?? test.error} />
        {test.data && <RuleTestResult kind={kind} result={test.data} />}
        <Group>
          <Button onClick={submit} loading={save.isPending} disabled={'error' in parsedLabels}>
            {rule ? 'Save rule' : 'Add rule'}
          </Button>
          <Button variant="light" onClick={() => test.mutate(drafted())} loading={test.isPending}>
            Test against current figures
          </Button>
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export const kindLabel = (kind: AlertRuleKind) => KIND_LABELS[kind];

const HOLDS_TEXT = (holds: boolean | null) =>
  holds === null ? 'unknown' : holds ? 'holds now' : 'does not hold';

/** What the drafted rule matches now, and where its condition holds: nothing was stored. */
function RuleTestResult({ kind, result }: { kind: AlertRuleKind; result: AlertRuleTest }) {
  const shown = (v: number | null) => (v === null ? '—' : shownFigure(kind, v));
  return (
    <Stack gap={4} aria-label="Rule test">
      <Text size="sm">
        Matches {result.matched}; holds now on {result.holding}
        {result.unknown > 0 ? `, unknown on ${result.unknown}` : ''}
        {result.observedAt ? ` (figures of ${formatTime(result.observedAt)})` : ''}. Nothing was saved.
      </Text>
      {result.note && (
        <Text size="sm" c="dimmed">
          {result.note}
        </Text>
      )}
      {result.readings.length > 0 && (
        <Table aria-label="Rule test readings">
          <Table.Tbody>
            {result.readings.map((r) => (
              <Table.Tr key={r.subject}>
                <Table.Td>{r.subject}</Table.Td>
                <Table.Td>{HOLDS_TEXT(r.holds)}</Table.Td>
                <Table.Td>{shown(r.value)}</Table.Td>
                <Table.Td c="dimmed">{r.why ?? ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
