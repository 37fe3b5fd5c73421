import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useMe } from '../../../lib/access/me';
import { AuditPanel } from './audit-panel';
import { GrantsPanel } from './grants-panel';
import { TokensPanel } from './tokens-panel';
import { UsersPanel } from './users-panel';

/**
 * Who may see and do what. Administrators manage users, grants and every token, and read the
 * audit trail; anyone else manages their own API tokens here.
 */
export function AccessPage() {
  const me = useMe().data;
  if (!me) return null;
  if (!me.administrator)
    return (
      <Stack>
        <Title order={2}>My API tokens</Title>
        <Text c="dimmed" size="sm">
          For scripts and CI: a token acts as you, never beyond the role you give it.
        </Text>
        <TokensPanel me={me} />
      </Stack>
    );
  return (
    <Stack>
      <Title order={2}>Access</Title>
      <Tabs defaultValue="users" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="grants">Grants</Tabs.Tab>
          <Tabs.Tab value="tokens">API tokens</Tabs.Tab>
          <Tabs.Tab value="audit">Audit trail</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="users" pt="md">
          <UsersPanel me={me} />
        </Tabs.Panel>
        <Tabs.Panel value="grants" pt="md">
          <GrantsPanel />
        </Tabs.Panel>
        <Tabs.Panel value="tokens" pt="md">
          <TokensPanel me={me} />
        </Tabs.Panel>
        <Tabs.Panel value="audit" pt="md">
          <AuditPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
