import { ALERT_THRESHOLD_UNIT, type AlertRule } from '@artemis-studio/contracts';
import {
  Alert as Callout,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useClusters } from '../../clusters/api/get-clusters';
import { describeError } from '../../../lib/api-client';
import { useAbilities } from '../../../lib/access/me';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { formatTime } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import {
  useAlertRules,
  useAlerts,
  useCreateReceiver,
  useCreateSilence,
  useDeleteReceiver,
  useDeleteRule,
  useDeliveries,
  useEndSilence,
  useReceivers,
  useSaveRule,
  useSilences,
} from '../api/alerts';
import { AlertsTable } from './alerts-table';
import { DeliveryLog } from './delivery-log';
import { kindLabel, RuleForm } from './rule-form';

const thresholdText = (rule: AlertRule) => {
  const unit = ALERT_THRESHOLD_UNIT[rule.kind];
  if (unit === null || rule.threshold === null) return '';
  return unit === 'fraction' ? `${Math.round(rule.threshold * 1000) / 10}%` : `${rule.threshold} ${unit}`;
};

/** One cluster's alerting: its alerts, rules, silences, receivers and delivery log. */
export function ClusterAlertingPage() {
  const { clusterId } = useParams({ from: '/clusters/$clusterId/alerting' });
  const cluster = useClusters().data?.find((c) => c.id === clusterId);
  const can = useAbilities();
  const name = cluster?.name ?? '';
  const adminRefusal = cluster ? can.refusal(name, 'admin') : 'loading the cluster';
  const operatorRefusal = cluster ? can.refusal(name, 'operator') : 'loading the cluster';
  const alerts = useAlerts({ state: 'active', cluster: clusterId });
  return (
    <Stack>
      <Title order={2}>Alerting</Title>
      <Card withBorder>
        <Stack>
          <Text fw={600}>Firing and pending</Text>
          <QueryState query={alerts} what="the alerts">
            {(data) => <AlertsTable alerts={data.items} showCluster={false} />}
          </QueryState>
        </Stack>
      </Card>
      <Rules clusterId={clusterId} refusal={adminRefusal} />
      <Silences clusterId={clusterId} refusal={operatorRefusal} />
      {adminRefusal === null ? (
        <Receivers clusterId={clusterId} />
      ) : (
        <Text size="sm" c="dimmed">
          Receivers (where alerts are sent) are shown to admins: {adminRefusal}.
        </Text>
      )}
      <Card withBorder>
        <Stack>
          <Text fw={600}>Delivery log</Text>
          <DeliveryLog query={useDeliveries(clusterId)} />
        </Stack>
      </Card>
    </Stack>
  );
}

function Rules({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const rules = useAlertRules(clusterId);
  const save = useSaveRule(clusterId);
  const remove = useDeleteRule(clusterId);
  const [editing, setEditing] = useState<AlertRule | 'new' | null>(null);
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between">
          <Text fw={600}>Rules</Text>
          <RefusableButton refusal={refusal} onClick={() => setEditing('new')}>
            Add rule
          </RefusableButton>
        </Group>
        {editing && (
          <RuleForm
            clusterId={clusterId}
            rule={editing === 'new' ? undefined : editing}
            onDone={() => setEditing(null)}
          />
        )}
        {(save.isError || remove.isError) && (
          <Callout color="red" role="alert">
            {describeError(save.error ?? remove.error)}
          </Callout>
        )}
        <QueryState query={rules} what="the rules">
          {(data) =>
            data.items.length === 0 ? (
              <Text c="dimmed">No rules yet: nothing is watched for you.</Text>
            ) : (
              <Table aria-label="Alert rules">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>When</Table.Th>
                    <Table.Th>On</Table.Th>
                    <Table.Th>For</Table.Th>
                    <Table.Th>Severity</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((rule) => (
                    <Table.Tr key={rule.id}>
                      <Table.Td>
                        {rule.name} {!rule.enabled && <Badge color="gray">off</Badge>}
                      </Table.Td>
                      <Table.Td>
                        {kindLabel(rule.kind)} {thresholdText(rule)}
                      </Table.Td>
                      <Table.Td>{rule.subjects}</Table.Td>
                      <Table.Td>{rule.forSeconds} s</Table.Td>
                      <Table.Td>{rule.severity}</Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <RefusableButton
                            size="xs"
                            variant="default"
                            refusal={refusal}
                            onClick={() => setEditing(rule)}
                          >
                            Change
                          </RefusableButton>
                          <RefusableButton
                            size="xs"
                            variant="default"
                            refusal={refusal}
                            onClick={() =>
                              save.mutate({ id: rule.id, rule: { ...rule, enabled: !rule.enabled } })
                            }
                          >
                            {rule.enabled ? 'Turn off' : 'Turn on'}
                          </RefusableButton>
                          <RefusableButton
                            size="xs"
                            color="red"
                            refusal={refusal}
                            onClick={() => remove.mutate(rule.id)}
                            aria-label={`Delete rule ${rule.name}`}
                          >
                            Delete
                          </RefusableButton>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )
          }
        </QueryState>
      </Stack>
    </Card>
  );
}

const SILENCE_HOURS = ['1', '2', '4', '8', '24'];

function Silences({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const silences = useSilences(clusterId);
  const create = useCreateSilence(clusterId);
  const end = useEndSilence(clusterId);
  const [subjects, setSubjects] = useState('*');
  const [hours, setHours] = useState('2');
  const [reason, setReason] = useState('');
  const submit = () =>
    create.mutate(
      { subjects, reason, endsAt: new Date(Date.now() + Number(hours) * 3_600_000).toISOString() },
      { onSuccess: () => setReason('') },
    );
  return (
    <Card withBorder>
      <Stack>
        <Text fw={600}>Silences</Text>
        <Text size="sm" c="dimmed">
          A silenced alert is still evaluated and listed; nobody is notified of it until the silence ends.
        </Text>
        <Group align="flex-end">
          <TextInput
            label="Subjects"
            value={subjects}
            onChange={(e) => setSubjects(e.currentTarget.value)}
            w={200}
          />
          <Select
            label="For (hours)"
            data={SILENCE_HOURS}
            value={hours}
            onChange={(v) => v && setHours(v)}
            w={110}
          />
          <TextInput
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <RefusableButton
            refusal={refusal}
            onClick={submit}
            loading={create.isPending}
            disabled={!reason.trim()}
          >
            Silence
          </RefusableButton>
        </Group>
        {(create.isError || end.isError) && (
          <Callout color="red" role="alert">
            {describeError(create.error ?? end.error)}
          </Callout>
        )}
        <QueryState query={silences} what="the silences">
          {(data) =>
            data.items.length === 0 ? (
              <Text c="dimmed">No silence in force.</Text>
            ) : (
              <Table aria-label="Silences">
                <Table.Tbody>
                  {data.items.map((s) => {
                    const over = s.endedEarlyAt !== null || Date.parse(s.endsAt) <= Date.now();
                    return (
                      <Table.Tr key={s.id}>
                        <Table.Td>{s.subjects}</Table.Td>
                        <Table.Td>{s.reason}</Table.Td>
                        <Table.Td>by {s.createdBy}</Table.Td>
                        <Table.Td>
                          {over
                            ? `ended ${formatTime(s.endedEarlyAt ?? s.endsAt)}`
                            : `until ${formatTime(s.endsAt)}`}
                        </Table.Td>
                        <Table.Td>
                          {!over && (
                            <RefusableButton
                              size="xs"
                              variant="default"
                              refusal={refusal}
                              onClick={() => end.mutate(s.id)}
                            >
                              End now
                            </RefusableButton>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            )
          }
        </QueryState>
      </Stack>
    </Card>
  );
}

function Receivers({ clusterId }: { clusterId: string }) {
  const receivers = useReceivers(clusterId, true);
  const create = useCreateReceiver(clusterId);
  const remove = useDeleteReceiver(clusterId);
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'alertmanager' | 'webhook'>('alertmanager');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [minSeverity, setMinSeverity] = useState<'info' | 'warning' | 'critical'>('warning');
  const submit = () =>
    create.mutate(
      { name, kind, url, minSeverity, secret: kind === 'webhook' ? secret : undefined },
      { onSuccess: () => (setName(''), setUrl(''), setSecret('')) },
    );
  return (
    <Card withBorder>
      <Stack>
        <Text fw={600}>Receivers</Text>
        <Group align="flex-end">
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} w={160} />
          <Select
            label="Kind"
            data={[
              { value: 'alertmanager', label: 'Alertmanager' },
              { value: 'webhook', label: 'Signed webhook' },
            ]}
            value={kind}
            onChange={(v) => v && setKind(v as typeof kind)}
            allowDeselect={false}
            w={170}
          />
          <TextInput
            label={kind === 'alertmanager' ? 'Alertmanager URL' : 'Webhook URL'}
            placeholder={kind === 'alertmanager' ? 'http://alertmanager:9093' : 'https://…'}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          {kind === 'webhook' && (
            <TextInput
              label="Signing secret"
              description="Sealed; never shown again"
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.currentTarget.value)}
              w={200}
            />
          )}
          <Select
            label="From severity"
            data={['info', 'warning', 'critical']}
            value={minSeverity}
            onChange={(v) => v && setMinSeverity(v as typeof minSeverity)}
            allowDeselect={false}
            w={130}
          />
          <Button onClick={submit} loading={create.isPending}>
            Add receiver
          </Button>
        </Group>
        {(create.isError || remove.isError) && (
          <Callout color="red" role="alert">
            {describeError(create.error ?? remove.error)}
          </Callout>
        )}
        <QueryState query={receivers} what="the receivers">
          {(data) =>
            data.items.length === 0 ? (
              <Text c="dimmed">No receiver: alerts show here and on NATS only.</Text>
            ) : (
              <Table aria-label="Receivers">
                <Table.Tbody>
                  {data.items.map((r) => (
                    <Table.Tr key={r.id}>
                      <Table.Td>{r.name}</Table.Td>
                      <Table.Td>{r.kind === 'alertmanager' ? 'Alertmanager' : 'Signed webhook'}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>{r.url}</Table.Td>
                      <Table.Td>from {r.minSeverity}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          color="red"
                          onClick={() => remove.mutate(r.id)}
                          aria-label={`Remove receiver ${r.name}`}
                        >
                          Remove
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )
          }
        </QueryState>
      </Stack>
    </Card>
  );
}
