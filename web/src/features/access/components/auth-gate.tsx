import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { describeError } from '../../../lib/api-client';
import { useMe } from '../../../lib/access/me';
import { useAuthConfig } from '../api/access';
import { SignInPage } from './sign-in-page';

/**
 * The console for someone signed in, the sign-in page for anyone else. A session that ends while
 * the console is open (signed out elsewhere, expired, revoked) brings the sign-in page back at
 * the next refused request; the place in the console is kept in the address.
 */
export function AuthGate({ children }: { children: ReactNode }) {
  const me = useMe();
  const config = useAuthConfig();
  if (me.isPending)
    return (
      <Center mih="100vh" aria-busy="true">
        <Loader size="sm" />
      </Center>
    );
  if (me.data === undefined)
    return (
      <Center mih="100vh" p="md">
        <Alert color="red" title="The gateway cannot be reached" role="alert" maw={480}>
          <Stack>
            <Text size="sm">{describeError(me.error)}</Text>
            <Button variant="light" onClick={() => void me.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  if (me.data === null) return <SignInPage />;
  return (
    <>
      {config.data?.mode === 'none' && (
        <Alert
          color="orange"
          variant="filled"
          radius={0}
          py={4}
          role="status"
          aria-label="No sign-in"
          // Fixed at the bottom, over every screen: the header is fixed at the top.
          style={{ position: 'fixed', bottom: 0, left: 0, right: 0, zIndex: 1000 }}
        >
          AUTH_MODE=none: anyone who reaches this console is an administrator. For local development only.
        </Alert>
      )}
      {children}
    </>
  );
}
