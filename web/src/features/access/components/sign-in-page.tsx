import {
  Alert,
  Button,
  Card,
  Center,
  Divider,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError, describeError } from '../../../lib/api-client';
import { useAuthConfig, useSignIn } from '../api/access';

/** What the gateway's OIDC callback says went wrong (`/sign-in?error=…`), in words. */
const CALLBACK_ERRORS: Record<string, string> = {
  SIGN_IN_REFUSED: 'The identity provider’s answer was refused. Try again, or ask an administrator.',
  SIGN_IN_EXPIRED: 'The sign-in took too long or was started in another browser. Try again.',
  IDENTITY_PROVIDER_UNAVAILABLE: 'The identity provider cannot be reached right now.',
};

function callbackError(): string | null {
  const code = new URLSearchParams(window.location.search).get('error');
  return code ? (CALLBACK_ERRORS[code] ?? `Sign-in failed (${code.slice(0, 60)}).`) : null;
}

/** Shown in place of the console to anyone not signed in: a password, or the identity provider. */
export function SignInPage() {
  const config = useAuthConfig();
  const signIn = useSignIn();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const returnTo = window.location.pathname.startsWith('/sign-in') ? '/' : window.location.pathname;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      { username, password },
      {
        onSuccess: () =>
          window.location.pathname.startsWith('/sign-in') && window.history.replaceState(null, '', '/'),
      },
    );
  };
  const failure = signIn.error
    ? signIn.error instanceof ApiError && signIn.error.code === 'TOO_MANY_SIGN_INS'
      ? 'Too many failed sign-ins: wait a minute and try again.'
      : signIn.error instanceof ApiError && signIn.error.status === 401
        ? 'Wrong username or password.'
        : describeError(signIn.error)
    : callbackError();
  return (
    <Center mih="100vh" p="md">
      <Card withBorder shadow="sm" padding="xl" w={380}>
        <form onSubmit={submit} aria-label="Sign in">
          <Stack>
            <Title order={2}>Artemis Studio</Title>
            <Text c="dimmed" size="sm">
              Sign in to watch and operate your brokers.
            </Text>
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            {config.data?.oidc && (
              <>
                <Button
                  component="a"
                  href={`/api/v1/auth/oidc/start?returnTo=${encodeURIComponent(returnTo)}`}
                  variant="default"
                >
                  Sign in with {config.data.oidc.name}
                </Button>
                <Divider label="or with a Studio account" labelPosition="center" />
              </>
            )}
            <TextInput
              label="Username"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.currentTarget.value)}
              required
              autoFocus
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              required
            />
            <Button type="submit" loading={signIn.isPending} disabled={!username || !password}>
              Sign in
            </Button>
          </Stack>
        </form>
      </Card>
    </Center>
  );
}
