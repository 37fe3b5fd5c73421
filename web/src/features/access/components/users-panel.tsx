import type { ApiToken, Grant, Me, Role, User } from '@artemis-studio/contracts';
import {
  Badge,
  Button,
  Group,
  Modal,
  PasswordInput,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { formatInstant } from '../../../lib/ui/format';
import { QueryState } from '../../../lib/ui/query-state';
import { useCreateUser, useDeleteUser, useGrants, useTokens, useUpdateUser, useUsers } from '../api/access';
import { RoleFields } from './role-fields';
import { TableHead } from '../../../lib/ui/table-head';

function NewUser() {
  const create = useCreateUser();
  const [kind, setKind] = useState<'local' | 'service'>('local');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role | null>('viewer');
  const [clusters, setClusters] = useState('*');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const base = { username, clusters, ...(role ? { role } : {}) };
    create.mutate(kind === 'local' ? { kind, password, ...base } : { kind, ...base }, {
      onSuccess: () => {
        setUsername('');
        setPassword('');
      },
    });
  };
  return (
    <form onSubmit={submit} aria-label="New user">
      <Stack gap="xs">
        <Group align="flex-end" wrap="wrap">
          <SegmentedControl
            value={kind}
            onChange={(v) => setKind(v as 'local' | 'service')}
            data={[
              { value: 'local', label: 'Person' },
              { value: 'service', label: 'Service account' },
            ]}
          />
          <TextInput label="Username" value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
          {kind === 'local' && (
            <PasswordInput
              label="Password"
              description="12 characters or more"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              autoComplete="new-password"
            />
          )}
          <RoleFields role={role} clusters={clusters} onRole={setRole} onClusters={setClusters} optional />
          <Button type="submit" loading={create.isPending}>
            Add
          </Button>
        </Group>
        <FailureAlert error={create.error} />
      </Stack>
    </form>
  );
}

/** A local user's new password; their sessions end with the change (yours too, if it is yours). */
function SetPassword({ user, onClose }: { user: User | null; onClose: () => void }) {
  const update = useUpdateUser();
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (user)
      update.mutate(
        { id: user.id, change: { password } },
        {
          onSuccess: () => {
            setPassword('');
            onClose();
          },
        },
      );
  };
  return (
    <Modal opened={user !== null} onClose={onClose} title={`New password for ${user?.username ?? ''}`}>
      <form onSubmit={submit} aria-label="Set password">
        <Stack>
          <PasswordInput
            label="New password"
            description="12 characters or more; every session of this user ends"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoComplete="new-password"
          />
          <FailureAlert error={update.error} />
          <Button type="submit" loading={update.isPending} disabled={password.length < 12}>
            Set password
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

export function UsersPanel({ me }: { me: Me }) {
  const users = useUsers();
  const grants = useGrants();
  const tokens = useTokens();
  const update = useUpdateUser();
  const remove = useDeleteUser();
  const failure = update.error ?? remove.error;
  const [settingPassword, setSettingPassword] = useState<User | null>(null);
  return (
    <Stack>
      <NewUser />
      <SetPassword user={settingPassword} onClose={() => setSettingPassword(null)} />
      <FailureAlert error={failure} />
      <QueryState query={users} what="users">
        {(list) => (
          <Table aria-label="Users" verticalSpacing="xs">
            <TableHead columns={['User', 'Kind', 'Roles', 'Groups', 'Last sign-in', '']} />
            <Table.Tbody>
              {list.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {user.username}
                    </Text>
                    {user.disabled && (
                      <Badge color="gray" variant="light">
                        disabled
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{user.kind}</Table.Td>
                  <Table.Td data-testid={`roles-${user.username}`}>
                    <AccessSummary
                      grants={grantsOf(user, grants.data ?? [])}
                      tokens={user.kind === 'service' ? tokensOf(user, tokens.data ?? []) : null}
                    />
                  </Table.Td>
                  <Table.Td>{user.groups.join(', ')}</Table.Td>
                  <Table.Td>{user.lastSignInAt ? formatInstant(user.lastSignInAt) : '—'}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      {user.kind === 'local' && (
                        <Button size="xs" variant="subtle" onClick={() => setSettingPassword(user)}>
                          Set password
                        </Button>
                      )}
                      {user.id !== me.id && (
                        <>
                          <Button
                            size="xs"
                            variant="subtle"
                            onClick={() =>
                              update.mutate({ id: user.id, change: { disabled: !user.disabled } })
                            }
                          >
                            {user.disabled ? 'Enable' : 'Disable'}
                          </Button>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            onClick={() => remove.mutate(user.id)}
                          >
                            Remove
                          </Button>
                        </>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </QueryState>
    </Stack>
  );
}

/** The grants made to the user by id (a group's grants are listed under Grants, by group). */
const grantsOf = (user: User, grants: readonly Grant[]) =>
  grants.filter((g) => g.subjectKind === 'user' && g.subject === user.id);

/** A service account's tokens still in force. */
const tokensOf = (user: User, tokens: readonly ApiToken[]) =>
  tokens.filter((t) => t.ownerId === user.id && t.revokedAt === null);

/** "admin on *, viewer on prod-*" and, for a service account, its tokens: access at a glance. */
function AccessSummary({ grants, tokens }: { grants: readonly Grant[]; tokens: readonly ApiToken[] | null }) {
  return (
    <Group gap={4}>
      {grants.length === 0 && (
        <Text size="sm" c="dimmed">
          none
        </Text>
      )}
      {grants.map((g) => (
        <Badge
          key={g.id}
          variant="light"
          color={g.role === 'admin' ? 'red' : g.role === 'operator' ? 'orange' : 'gray'}
        >
          {g.role} on {g.clusters}
        </Badge>
      ))}
      {tokens !== null && (
        <Text size="xs" c="dimmed">
          {tokens.length === 0
            ? 'no token'
            : `${tokens.length} token${tokens.length === 1 ? '' : 's'}: ${tokens.map((t) => t.name).join(', ')}`}
        </Text>
      )}
    </Group>
  );
}
