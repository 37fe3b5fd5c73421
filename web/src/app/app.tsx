import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useMemo } from 'react';
import { AuthGate } from '../features/access/components/auth-gate';
import type { Live } from '../lib/live';
import { LiveProvider } from '../lib/live-context';
import { createAppRouter } from './router';

const theme = createTheme({
  primaryColor: 'indigo',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});

export function App({ live }: { live: Live }) {
  const router = useMemo(() => createAppRouter(live), [live]);
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto">
      <QueryClientProvider client={live.queryClient}>
        <LiveProvider live={live}>
          <ModalsProvider>
            <Notifications position="bottom-right" />
            <AuthGate>
              <RouterProvider router={router} />
            </AuthGate>
          </ModalsProvider>
        </LiveProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
