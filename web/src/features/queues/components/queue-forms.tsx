import { Checkbox, NumberInput, SegmentedControl, Text, TextInput } from '@mantine/core';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { useCreateAddress, useCreateQueue, useDeleteAddress } from '../api/broker-changes';
import { ActionFormButton } from './action-form-button';
import { showOutcome } from './show-outcome';

/** "Create queue…": a queue on every live node, with the settings people set most. */
export function CreateQueueButton({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const create = useCreateQueue(clusterId);
  const [address, setAddress] = useState('');
  const [routingType, setRoutingType] = useState<'ANYCAST' | 'MULTICAST'>('ANYCAST');
  const [durable, setDurable] = useState(true);
  const [filter, setFilter] = useState('');
  const [maxConsumers, setMaxConsumers] = useState<number | string>(-1);
  const [purgeOnNoConsumers, setPurgeOnNoConsumers] = useState(false);
  const submit = async (name: string, idempotencyKey: string) => {
    const result = await create.mutateAsync({
      idempotencyKey,
      queue: {
        name,
        ...(address.trim() ? { address: address.trim() } : {}),
        routingType,
        durable,
        ...(filter.trim() ? { filter: filter.trim() } : {}),
        maxConsumers: Number(maxConsumers),
        purgeOnNoConsumers,
      },
    });
    const on = result.nodes.filter((n) => n.outcome === 'done').map((n) => n.node);
    showOutcome(`${result.target} created on ${on.join(', ')}`, result.nodes);
  };
  return (
    <CreateFormButton thing="queue" refusal={refusal} mutation={create} create={submit}>
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
      <Checkbox
        label="Purge when its last consumer leaves"
        checked={purgeOnNoConsumers}
        onChange={(e) => setPurgeOnNoConsumers(e.currentTarget.checked)}
      />
    </CreateFormButton>
  );
}

/** "Create address…": an address on every live node, for an administrator (every queue hangs from one). */
export function CreateAddressButton({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const create = useCreateAddress(clusterId);
  const [routingTypes, setRoutingTypes] = useState<string>('ANYCAST');
  const submit = async (name: string, idempotencyKey: string) => {
    const result = await create.mutateAsync({
      idempotencyKey,
      address: {
        name,
        routingTypes:
          routingTypes === 'both' ? ['ANYCAST', 'MULTICAST'] : [routingTypes as 'ANYCAST' | 'MULTICAST'],
      },
    });
    showOutcome(`address ${result.target} created`, result.nodes);
  };
  return (
    <CreateFormButton thing="address" refusal={refusal} mutation={create} create={submit}>
      <SegmentedControl
        aria-label="Routing types"
        value={routingTypes}
        data={[
          { value: 'ANYCAST', label: 'anycast' },
          { value: 'MULTICAST', label: 'multicast' },
          { value: 'both', label: 'both' },
        ]}
        onChange={setRoutingTypes}
      />
    </CreateFormButton>
  );
}

/**
 * "Delete address…": refused by the broker while queues are bound to it, unless the administrator
 * asks for them to go too; the address's name is typed to confirm.
 */
export function DeleteAddressButton({ clusterId, refusal }: { clusterId: string; refusal: string | null }) {
  const remove = useDeleteAddress(clusterId);
  const [name, setName] = useState('');
  const [removeQueues, setRemoveQueues] = useState(false);
  const [typed, setTyped] = useState('');
  const submit = async (idempotencyKey: string) => {
    const result = await remove.mutateAsync({ name: name.trim(), removeQueues, idempotencyKey });
    showOutcome(`address ${result.target} deleted`, result.nodes);
  };
  return (
    <ActionFormButton
      label="Delete address…"
      refusal={refusal}
      title="Delete an address"
      submitLabel="Delete"
      destructive
      canSubmit={name.trim() !== '' && typed === name.trim()}
      mutation={remove}
      submit={submit}
    >
      <TextInput label="Address" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
      <Checkbox
        label="Delete its queues too, with their messages"
        description="Without this the broker refuses while a queue is bound to the address"
        checked={removeQueues}
        onChange={(e) => setRemoveQueues(e.currentTarget.checked)}
      />
      <Text size="sm" c="dimmed">
        On every live node. Producers sending to it will be refused or will create it again, as the broker is
        configured.
      </Text>
      <TextInput
        label="Type the address's name to confirm"
        value={typed}
        onChange={(e) => setTyped(e.currentTarget.value)}
      />
    </ActionFormButton>
  );
}

/** A "Create …" form: the name, required, then what else the thing takes. */
function CreateFormButton({
  thing,
  refusal,
  mutation,
  create,
  children,
}: {
  thing: 'queue' | 'address';
  refusal: string | null;
  mutation: ComponentProps<typeof ActionFormButton>['mutation'];
  create(name: string, idempotencyKey: string): Promise<unknown>;
  children: ReactNode;
}) {
  const [name, setName] = useState('');
  return (
    <ActionFormButton
      label={`Create ${thing}…`}
      refusal={refusal}
      title={`Create ${thing === 'address' ? 'an' : 'a'} ${thing}`}
      submitLabel="Create"
      canSubmit={name.trim() !== ''}
      mutation={mutation}
      submit={(idempotencyKey) => create(name.trim(), idempotencyKey)}
    >
      <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
      {children}
    </ActionFormButton>
  );
}
