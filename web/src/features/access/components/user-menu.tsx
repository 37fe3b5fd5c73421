import { Badge, Button, Menu, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useMe } from '../../../lib/access/me';
import { FailureAlert } from '../../../lib/ui/failure-alert';
import { useChangePassword, useSignOut } from '../api/access';

function ChangePassword({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const change = useChangePassword();
  const [currentPassword, setCurrent] = useState('');
  const [newPassword, setNew] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ currentPassword, newPassword });
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Change your password">
      <form onSubmit={submit} aria-label="Change password">
        <Stack>
          <PasswordInput
            label="Current password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
          <PasswordInput
            label="New password"
            description="12 characters or more; you sign in again with it, everywhere"
            autoComplete="new-password"
            value={newPassword}
            onChange={(e) => setNew(e.currentTarget.value)}
          />
          <FailureAlert error={change.error} />
          <Button
            type="submit"
            loading={change.isPending}
            disabled={!currentPassword || newPassword.length < 12}
          >
            Change password
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

/** Who is signed in and with what role, in the header; access management and signing out. */
export function UserMenu() {
  const me = useMe().data;
  const signOut = useSignOut();
  const [changing, setChanging] = useState(false);
  if (!me) return null;
  const roles = me.grants.map((g) => (g.clusters === '*' ? g.role : `${g.role} on ${g.clusters}`));
  const summary = me.administrator ? 'admin' : roles.join(', ') || 'no role';
  return (
    <>
      <ChangePassword opened={changing} onClose={() => setChanging(false)} />
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
            style={{ flexShrink: 0 }}
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
          <Menu.Item component={Link} to="/http-api">
            HTTP API reference
          </Menu.Item>
          <Menu.Item component={Link} to="/access">
            {me.administrator ? 'Access: users, grants, tokens, audit' : 'My API tokens'}
          </Menu.Item>
          {me.kind === 'local' && me.via === 'session' && (
            <Menu.Item onClick={() => setChanging(true)}>Change password</Menu.Item>
          )}
          {me.via === 'session' && (
            <Menu.Item color="red" onClick={() => signOut.mutate()}>
              Sign out
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
    </>
  );
}
