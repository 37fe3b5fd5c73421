import { Center, createTheme, Loader, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { AuthGate } from '../features/access/components/auth-gate';
import type { Live } from '../lib/live';
import { LiveProvider } from '../lib/live-context';

/** Every screen behind the sign-in, in scripts of their own (issue 31: the sign-in form first). */
const Console = lazy(() => import('./console'));

const theme = createTheme({
  primaryColor: 'indigo',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});

export function App({ live }: { live: Live }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <QueryClientProvider client={live.queryClient}>
        <LiveProvider live={live}>
          <ModalsProvider>
            <Notifications position="bottom-right" />
            <AuthGate>
              <Suspense
                fallback={
                  <Center mih="100vh" aria-busy="true">
                    <Loader size="sm" />
                  </Center>
                }
              >
                <Console live={live} />
              </Suspense>
            </AuthGate>
          </ModalsProvider>
        </LiveProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
