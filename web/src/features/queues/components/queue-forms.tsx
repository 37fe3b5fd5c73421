import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  SegmentedControl,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { RefusableButton } from '../../../lib/access/refusable-button';
import { describeError } from '../../../lib/api-client';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { useCreateQueue, useSendMessage } from '../api/broker-changes';
import { parseHeaders } from '../message-text';

/** "Create queue…": a queue on every live node, with the settings people set most. */
export function CreateQueueButton({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const create = useCreateQueue(clusterId);
  const [form, setForm] = useState<{ key: string } | null>(null);
  const [name, setName] = useState('');
  const [address, setAddress] = useState('');
  const [routingType, setRoutingType] = useState<'ANYCAST' | 'MULTICAST'>('ANYCAST');
  const [durable, setDurable] = useState(true);
  const [filter, setFilter] = useState('');
  const [maxConsumers, setMaxConsumers] = useState<number | string>(-1);
  const close = () => {
    setForm(null);
    create.reset();
  };
  const submit = () =>
    form &&
    void create
      .mutateAsync({
        idempotencyKey: form.key,
        queue: {
          name: name.trim(),
          ...(address.trim() ? { address: address.trim() } : {}),
          routingType,
          durable,
          ...(filter.trim() ? { filter: filter.trim() } : {}),
          maxConsumers: Number(maxConsumers),
        },
      })
      .then((result) => {
        notifications.show({
          color: 'green',
          message: `${result.target} created on ${result.nodes
            .filter((n) => n.outcome === 'done')
            .map((n) => n.node)
            .join(', ')}`,
        });
        close();
      })
      .catch(() => undefined);
  return (
    <>
      <RefusableButton
        refusal={refusal}
        variant="light"
        onClick={() => setForm({ key: newIdempotencyKey() })}
      >
        Create queue…
      </RefusableButton>
      <Modal opened={form !== null} onClose={close} title="Create a queue">
        <Stack component="form" aria-label="Create a queue" onSubmit={(e) => (e.preventDefault(), submit())}>
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <TextInput
            label="Address"
            placeholder="the queue's name"
            value={address}
            onChange={(e) => setAddress(e.currentTarget.value)}
          />
          <SegmentedControl
            aria-label="Routing type"
            value={routingType}
            data={['ANYCAST', 'MULTICAST']}
            onChange={(v) => setRoutingType(v as 'ANYCAST' | 'MULTICAST')}
          />
          <TextInput
            label="Filter"
            placeholder="none"
            value={filter}
            onChange={(e) => setFilter(e.currentTarget.value)}
          />
          <NumberInput
            label="Max consumers"
            description="-1 for no limit"
            min={-1}
            value={maxConsumers}
            onChange={setMaxConsumers}
          />
          <Checkbox label="Durable" checked={durable} onChange={(e) => setDurable(e.currentTarget.checked)} />
          {create.isError && <Alert color="red">{describeError(create.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={!name.trim()} loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** "Send message…": one text or Base64 message to this queue, sent by the broker. */
export function SendMessageButton({
  clusterId,
  queue,
  refusal,
}: {
  clusterId: string;
  queue: string;
  refusal: string | null;
}) {
  const send = useSendMessage(clusterId, queue);
  const [form, setForm] = useState<{ key: string } | null>(null);
  const [body, setBody] = useState('');
  const [encoding, setEncoding] = useState<'text' | 'base64'>('text');
  const [headers, setHeaders] = useState('');
  const [durable, setDurable] = useState(true);
  const parsed = parseHeaders(headers);
  const close = () => {
    setForm(null);
    send.reset();
  };
  const submit = () =>
    form &&
    'headers' in parsed &&
    void send
      .mutateAsync({
        idempotencyKey: form.key,
        message: { body, bodyEncoding: encoding, headers: parsed.headers, durable },
      })
      .then((result) => {
        notifications.show({ color: 'green', message: `Sent to ${queue} on ${result.nodes[0]?.node}` });
        close();
      })
      .catch(() => undefined);
  return (
    <>
      <RefusableButton
        refusal={refusal}
        variant="light"
        onClick={() => setForm({ key: newIdempotencyKey() })}
      >
        Send message…
      </RefusableButton>
      <Modal opened={form !== null} onClose={close} title={`Send a message to ${queue}`} size="lg">
        <Stack component="form" aria-label="Send a message" onSubmit={(e) => (e.preventDefault(), submit())}>
          <SegmentedControl
            aria-label="Body encoding"
            value={encoding}
            data={[
              { value: 'text', label: 'Text' },
              { value: 'base64', label: 'Bytes (Base64)' },
            ]}
            onChange={(v) => setEncoding(v as 'text' | 'base64')}
          />
          <Textarea
            label="Body"
            autosize
            minRows={4}
            maxRows={14}
            value={body}
            onChange={(e) => setBody(e.currentTarget.value)}
          />
          <Textarea
            label="Headers"
            description="One name=value a line; each becomes a String property"
            autosize
            minRows={2}
            value={headers}
            error={'error' in parsed ? parsed.error : undefined}
            onChange={(e) => setHeaders(e.currentTarget.value)}
          />
          <Checkbox label="Durable" checked={durable} onChange={(e) => setDurable(e.currentTarget.checked)} />
          {send.isError && <Alert color="red">{describeError(send.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" disabled={'error' in parsed} loading={send.isPending}>
              Send
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
