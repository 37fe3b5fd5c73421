import type { CreatedToken, Me, Role } from '@artemis-studio/contracts';
import {
  Badge,
  Button,
  Code,
  CopyButton,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { formatInstant } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import { useCreateToken, useRevokeToken, useTokens, useUsers } from '../api/access';
import { RoleFields } from './role-fields';
import { TableHead } from '../../../lib/ui/table-head';

/** The secret, once: it is never shown again, anywhere. */
function NewSecret({ created, onClose }: { created: CreatedToken | null; onClose: () => void }) {
  return (
    <Modal opened={created !== null} onClose={onClose} title="Copy the token now" size="lg">
      {created && (
        <Stack>
          <Text size="sm">
            This is the only time the token <b>{created.token.name}</b> is shown. Send it as{' '}
            <Code>Authorization: Bearer …</Code>.
          </Text>
          <Code block data-testid="new-token-secret">
            {created.secret}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={created.secret}>
              {({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}
            </CopyButton>
            <Button variant="default" onClick={onClose}>
              Done
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

export function TokensPanel({ me }: { me: Me }) {
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const services = useUsers();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role | null>('viewer');
  const [clusters, setClusters] = useState('*');
  const [days, setDays] = useState<number | string>(90);
  const [owner, setOwner] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!role) return;
    create.mutate(
      {
        name,
        role,
        clusters,
        ...(owner ? { ownerId: owner } : {}),
        ...(days === '' ? {} : { expiresInDays: Number(days) }),
      },
      {
        onSuccess: (answer) => {
          setCreated(answer);
          setName('');
        },
      },
    );
  };
  const failure = create.error ?? revoke.error;
  const serviceAccounts = me.administrator ? (services.data ?? []).filter((u) => u.kind === 'service') : [];
  return (
    <Stack>
      <form onSubmit={submit} aria-label="New API token">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label="Name"
            placeholder="ci-deploy"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          {me.administrator && (
            <Select
              label="For"
              data={[
                { value: '', label: `me (${me.name})` },
                ...serviceAccounts.map((u) => ({ value: u.id, label: `${u.username} (service)` })),
              ]}
              value={owner ?? ''}
              onChange={(v) => setOwner(v || null)}
              w={200}
            />
          )}
          <RoleFields role={role} clusters={clusters} onRole={setRole} onClusters={setClusters} />
          <NumberInput
            label="Expires in"
            suffix=" days"
            value={days}
            onChange={setDays}
            min={1}
            max={3650}
            w={130}
          />
          <Button type="submit" loading={create.isPending} disabled={!name || !role}>
            Create
          </Button>
        </Group>
      </form>
      <FailureAlert error={failure} />
      <QueryState query={tokens} what="API tokens">
        {(list) => (
          <Table aria-label="API tokens" verticalSpacing="xs">
            <TableHead columns={['Name', 'Owner', 'Role', 'Expires', 'Last used', '']} />
            <Table.Tbody>
              {list.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>{token.name}</Table.Td>
                  <Table.Td>{token.ownerName}</Table.Td>
                  <Table.Td>
                    {token.role} on <code>{token.clusters}</code>
                  </Table.Td>
                  <Table.Td>{token.expiresAt ? formatInstant(token.expiresAt) : 'never'}</Table.Td>
                  <Table.Td>{token.lastUsedAt ? formatInstant(token.lastUsedAt) : '—'}</Table.Td>
                  <Table.Td>
                    {token.revokedAt ? (
                      <Badge color="gray" variant="light">
                        revoked
                      </Badge>
                    ) : (
                      <Button size="xs" variant="subtle" color="red" onClick={() => revoke.mutate(token.id)}>
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
      <NewSecret created={created} onClose={() => setCreated(null)} />
    </Stack>
  );
}
