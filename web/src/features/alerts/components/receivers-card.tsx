import { Button, Card, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { QueryState } from '../../../lib/ui/query-state';
import { useCreateReceiver, useDeleteReceiver, useReceivers } from '../api/alerts';

/** Where the cluster's alerts go: shown to admins only (a webhook's URL may be someone's secret). */
export function Receivers({ clusterId }: { clusterId: string }) {
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
        <FailureAlert error={create.error ?? remove.error} />
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
