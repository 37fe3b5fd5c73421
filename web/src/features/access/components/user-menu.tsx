import { Badge, Button, Menu, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useMe } from '../../../lib/access/me';
import { useSignOut } from '../api/access';

/** Who is signed in and with what role, in the header; access management and signing out. */
export function UserMenu() {
  const me = useMe().data;
  const signOut = useSignOut();
  if (!me) return null;
  const roles = me.grants.map((g) => (g.clusters === '*' ? g.role : `${g.role} on ${g.clusters}`));
  const summary = me.administrator ? 'admin' : roles.join(', ') || 'no role';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          aria-label={`Signed in as ${me.name} (${summary})`}
          data-testid="user-menu"
          rightSection={
            <Badge variant="light" size="sm" color={me.administrator ? 'indigo' : 'gray'}>
              {me.administrator ? 'admin' : (me.grants[0]?.role ?? 'no role')}
              {!me.administrator && me.grants.length > 1 ? ' +' : ''}
            </Badge>
          }
          maw={240}
        >
          <Text span size="sm" truncate="end" maw={140}>
            {me.name}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="xs">
            {me.kind === 'oidc'
              ? 'Signed in with the identity provider'
              : me.kind === 'anonymous'
                ? 'No sign-in (AUTH_MODE=none)'
                : 'Studio account'}
          </Text>
          {me.groups.length > 0 && <Text size="xs">Groups: {me.groups.join(', ')}</Text>}
        </Menu.Label>
        <Menu.Label>
          <Text size="xs">Roles: {summary}</Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to="/settings">
          Runtime settings
        </Menu.Item>
        <Menu.Item component={Link} to="/access">
          {me.administrator ? 'Access: users, grants, tokens, audit' : 'My API tokens'}
        </Menu.Item>
        {me.via === 'session' && (
          <Menu.Item color="red" onClick={() => signOut.mutate()}>
            Sign out
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
