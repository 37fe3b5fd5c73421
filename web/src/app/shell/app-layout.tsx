import {
  ActionIcon,
  Anchor,
  AppShell,
  Burger,
  Button,
  Group,
  Kbd,
  Select,
  Stack,
  Text,
  Title,
  Tooltip,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { spotlight } from '@mantine/spotlight';
import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useNavigate, useParams } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useClusters } from '../../lib/clusters/get-clusters';
import { settingsQueryOptions } from '../../features/settings/api/settings';
import { useLive, usePause } from '../../lib/live-context';
import { UserMenu } from '../../features/access/components/user-menu';
import { AlertsBadge } from '../../features/alerts/components/alerts-badge';
import { ClusterNav } from './cluster-nav';
import { CommandPalette } from './command-palette';
import { FreshnessIndicator } from './freshness-indicator';

function ClusterSwitcher({ clusterId }: { clusterId: string | undefined }) {
  const clusters = useClusters();
  const navigate = useNavigate();
  return (
    <Select
      aria-label="Cluster"
      placeholder={clusters.isPending ? 'Loading…' : 'Choose a cluster'}
      data={(clusters.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
      value={clusterId ?? null}
      onChange={(id) => id && void navigate({ to: '/clusters/$clusterId', params: { clusterId: id } })}
      searchable
      w={220}
      nothingFoundMessage="No such cluster"
    />
  );
}

function RefreshAndPause() {
  const live = useLive();
  const { paused, waiting } = usePause();
  return (
    <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
      <Button variant="default" onClick={() => void live.queryClient.refetchQueries({ type: 'active' })}>
        Refresh
      </Button>
      <Button
        variant={paused ? 'filled' : 'default'}
        color={paused ? 'gray' : undefined}
        onClick={() => live.pause.toggle()}
        aria-pressed={paused}
      >
        {paused ? (waiting > 0 ? `Resume (${waiting})` : 'Resume') : 'Pause'}
      </Button>
    </Group>
  );
}

function ColorSchemeToggle() {
  const { colorScheme, toggleColorScheme } = useMantineColorScheme();
  return (
    <Tooltip label="Light or dark">
      <ActionIcon
        variant="default"
        size="lg"
        onClick={toggleColorScheme}
        aria-label="Toggle the colour scheme"
      >
        {colorScheme === 'dark' ? '☀' : '☾'}
      </ActionIcon>
    </Tooltip>
  );
}

/** The shell of every route: header (switcher, freshness, refresh, pause), the cluster's sidebar, the screen. */
export function AppLayout() {
  const live = useLive();
  const { clusterId } = useParams({ strict: false });
  const [navOpened, { toggle }] = useDisclosure(false);
  // The console's own settings (heartbeat for the watchdog, the poll floor) follow the gateway's.
  const settings = useQuery(settingsQueryOptions());
  useEffect(() => {
    if (settings.data) live.settings.apply(settings.data);
  }, [live, settings.data]);

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={clusterId ? { width: 220, breakpoint: 'sm', collapsed: { mobile: !navOpened } } : undefined}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap">
            {clusterId && (
              <Burger opened={navOpened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Menu" />
            )}
            <Anchor component={Link} to="/clusters" underline="never" c="inherit">
              <Title order={4} style={{ whiteSpace: 'nowrap' }}>
                Artemis Studio
              </Title>
            </Anchor>
            <ClusterSwitcher clusterId={clusterId} />
          </Group>
          <Group gap="md" wrap="nowrap">
            <FreshnessIndicator />
            <AlertsBadge />
            <RefreshAndPause />
            {/* The shortcut alone: at 1280 px the header had no room for the label, and the
                freshness state and the signed-in user were clipped to make it. */}
            <Button
              variant="subtle"
              color="gray"
              px={6}
              onClick={() => spotlight.open()}
              aria-label="Go to a screen or cluster (Ctrl K)"
              title="Go to a screen or cluster"
              style={{ flexShrink: 0 }}
            >
              <Kbd size="xs">Ctrl K</Kbd>
            </Button>
            <ColorSchemeToggle />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      {clusterId && (
        <AppShell.Navbar p="sm">
          <ClusterNav clusterId={clusterId} />
        </AppShell.Navbar>
      )}
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
      <CommandPalette />
    </AppShell>
  );
}

export function NotFound() {
  return (
    <Stack>
      <Title order={2}>Nothing here</Title>
      <Text>
        This address is not a screen of Artemis Studio.{' '}
        <Anchor component={Link} to="/clusters">
          See the clusters
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
