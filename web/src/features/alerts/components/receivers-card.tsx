import {
  ALERT_RECEIVER_KINDS,
  ALERT_SEVERITIES,
  type AlertReceiverKind,
  type AlertSeverity,
  type CreateReceiverInput,
} from '@artemis-studio/contracts';
import { Button, Card, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { QueryState } from '../../../lib/ui/query-state';
import { notifications } from '@mantine/notifications';
import { useCreateReceiver, useDeleteReceiver, useReceivers, useSendTestNotification } from '../api/alerts';
import { labelLines, parseLabelLines } from '../label-lines';

const KIND_LABELS: Record<AlertReceiverKind, string> = {
  alertmanager: 'Alertmanager',
  webhook: 'Signed webhook',
  slack: 'Slack',
  teams: 'Microsoft Teams',
  email: 'Email (SMTP)',
};

/** A receiver's matchers as one line: `team=payments, env=prod`. */
const labelList = (labels: Record<string, string>) => labelLines(labels).split('\n').join(', ');

/** The request a filled form makes: each kind asks for what it needs, and no more. */
function receiverOf(form: {
  name: string;
  kind: AlertReceiverKind;
  url: string;
  secret: string;
  minSeverity: AlertSeverity;
  matchers: Record<string, string>;
  from: string;
  to: string;
  user: string;
}): CreateReceiverInput {
  const common = { name: form.name, minSeverity: form.minSeverity, matchers: form.matchers };
  switch (form.kind) {
    case 'alertmanager':
      return { ...common, kind: 'alertmanager', url: form.url };
    case 'webhook':
      return { ...common, kind: 'webhook', url: form.url, secret: form.secret };
    case 'slack':
    case 'teams':
      return { ...common, kind: form.kind, secret: form.secret };
    case 'email':
      return {
        ...common,
        kind: 'email',
        url: form.url,
        email: {
          from: form.from,
          to: form.to
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean),
          user: form.user || undefined,
        },
        secret: form.secret || undefined,
      };
  }
}

/** Where the cluster's alerts go: shown to admins only (a webhook's URL may be someone's secret). */
export function Receivers({ clusterId }: { clusterId: string }) {
  const receivers = useReceivers(clusterId, true);
  const create = useCreateReceiver(clusterId);
  const remove = useDeleteReceiver(clusterId);
  const test = useSendTestNotification(clusterId);
  const sendTest = (id: string, name: string) =>
    test.mutate(id, {
      onSuccess: () =>
        notifications.show({
          color: 'blue',
          title: `Test notification to ${name}`,
          message: "Sent by the cluster's scraper within a second or so: its outcome is in the delivery log.",
        }),
    });
  const [name, setName] = useState('');
  const [kind, setKind] = useState<AlertReceiverKind>('alertmanager');
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [user, setUser] = useState('');
  const [minSeverity, setMinSeverity] = useState<AlertSeverity>('warning');
  // `team=payments, env=prod`: only the alerts whose rule carries each of these labels.
  const [only, setOnly] = useState('');
  const matchers = parseLabelLines(only.split(',').join('\n'));
  const chat = kind === 'slack' || kind === 'teams';
  const submit = () =>
    'labels' in matchers &&
    create.mutate(
      receiverOf({ name, kind, url, secret, minSeverity, matchers: matchers.labels, from, to, user }),
      { onSuccess: () => (setName(''), setUrl(''), setSecret(''), setTo(''), setUser(''), setOnly('')) },
    );
  return (
    <Card withBorder data-testid="receivers">
      <Stack>
        <Text fw={600}>Receivers</Text>
        <Group align="flex-end">
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} w={160} />
          <Select
            label="Kind"
            data={ALERT_RECEIVER_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
            value={kind}
            onChange={(v) => v && setKind(v as AlertReceiverKind)}
            allowDeselect={false}
            w={170}
          />
          {!chat && (
            <TextInput
              label={
                kind === 'alertmanager'
                  ? 'Alertmanager URL'
                  : kind === 'email'
                    ? 'SMTP server'
                    : 'Webhook URL'
              }
              placeholder={
                kind === 'alertmanager'
                  ? 'http://alertmanager:9093'
                  : kind === 'email'
                    ? 'smtp://mail.example.com:587 (STARTTLS) or smtps://…'
                    : 'https://…'
              }
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
          )}
          {kind === 'email' && (
            <>
              <TextInput label="From" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={200} />
              <TextInput
                label="To"
                description="Addresses, comma-separated"
                value={to}
                onChange={(e) => setTo(e.currentTarget.value)}
                w={240}
              />
              <TextInput
                label="Login"
                value={user}
                onChange={(e) => setUser(e.currentTarget.value)}
                w={140}
              />
            </>
          )}
          {kind !== 'alertmanager' && (
            <TextInput
              label={chat ? 'Incoming webhook URL' : kind === 'email' ? 'Password' : 'Signing secret'}
              description="Sealed; never shown again"
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.currentTarget.value)}
              w={chat ? 360 : 200}
            />
          )}
          <Select
            label="From severity"
            data={[...ALERT_SEVERITIES]}
            value={minSeverity}
            onChange={(v) => v && setMinSeverity(v as AlertSeverity)}
            allowDeselect={false}
            w={130}
          />
          <TextInput
            label="Only alerts labelled"
            description="e.g. team=payments; empty for all"
            value={only}
            onChange={(e) => setOnly(e.currentTarget.value)}
            error={'error' in matchers ? matchers.error : undefined}
            w={200}
          />
          <Button onClick={submit} loading={create.isPending} disabled={'error' in matchers}>
            Add receiver
          </Button>
        </Group>
        <FailureAlert error={create.error ?? remove.error ?? test.error} />
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
                      <Table.Td>{KIND_LABELS[r.kind]}</Table.Td>
                      <Table.Td style={{ wordBreak: 'break-all' }}>
                        {r.url}
                        {r.email ? ` → ${r.email.to.join(', ')}` : ''}
                      </Table.Td>
                      <Table.Td>
                        from {r.minSeverity}
                        {Object.keys(r.matchers).length > 0 ? `, labelled ${labelList(r.matchers)}` : ''}
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="xs"
                            variant="light"
                            onClick={() => sendTest(r.id, r.name)}
                            loading={test.isPending && test.variables === r.id}
                            aria-label={`Send receiver ${r.name} a test notification`}
                          >
                            Send a test
                          </Button>
                          <Button
                            size="xs"
                            color="red"
                            onClick={() => remove.mutate(r.id)}
                            aria-label={`Remove receiver ${r.name}`}
                          >
                            Remove
                          </Button>
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
