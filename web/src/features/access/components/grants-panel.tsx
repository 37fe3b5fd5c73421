import type { Role } from '@artemis-studio/contracts';
import { Button, Group, SegmentedControl, Select, Stack, Table, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { QueryState } from '../../../lib/ui/query-state';
import { useCreateGrant, useDeleteGrant, useGrants, useUsers } from '../api/access';
import { RoleFields } from './role-fields';
import { TableHead } from '../../../lib/ui/table-head';

/** Roles on clusters, for a Studio user or for an identity-provider group (by the name in its groups claim). */
export function GrantsPanel() {
  const grants = useGrants();
  const users = useUsers();
  const create = useCreateGrant();
  const remove = useDeleteGrant();
  const [subjectKind, setSubjectKind] = useState<'user' | 'group'>('group');
  const [subject, setSubject] = useState('');
  const [role, setRole] = useState<Role | null>('viewer');
  const [clusters, setClusters] = useState('*');
  const nameOf = (id: string) => users.data?.find((u) => u.id === id)?.username ?? id;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (role) create.mutate({ subjectKind, subject, role, clusters }, { onSuccess: () => setSubject('') });
  };
  const failure = create.error ?? remove.error;
  return (
    <Stack>
      <form onSubmit={submit} aria-label="New grant">
        <Group align="flex-end" wrap="wrap">
          <SegmentedControl
            value={subjectKind}
            onChange={(v) => {
              setSubjectKind(v as 'user' | 'group');
              setSubject('');
            }}
            data={[
              { value: 'group', label: 'Group' },
              { value: 'user', label: 'User' },
            ]}
          />
          {subjectKind === 'group' ? (
            <TextInput
              label="Group"
              description="as the identity provider names it"
              value={subject}
              onChange={(e) => setSubject(e.currentTarget.value)}
            />
          ) : (
            <Select
              label="User"
              data={(users.data ?? []).map((u) => ({ value: u.id, label: u.username }))}
              value={subject || null}
              onChange={(v) => setSubject(v ?? '')}
              searchable
            />
          )}
          <RoleFields role={role} clusters={clusters} onRole={setRole} onClusters={setClusters} />
          <Button type="submit" loading={create.isPending} disabled={!subject || !role}>
            Grant
          </Button>
        </Group>
      </form>
      <FailureAlert error={failure} />
      <QueryState query={grants} what="grants">
        {(list) => (
          <Table aria-label="Grants" verticalSpacing="xs">
            <TableHead columns={['Who', 'Role', 'On clusters', '']} />
            <Table.Tbody>
              {list.map((grant) => (
                <Table.Tr key={grant.id}>
                  <Table.Td>
                    {grant.subjectKind === 'group' ? `group ${grant.subject}` : nameOf(grant.subject)}
                  </Table.Td>
                  <Table.Td>{grant.role}</Table.Td>
                  <Table.Td>
                    <code>{grant.clusters}</code>
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(grant.id)}>
                      Revoke
                    </Button>
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
