import { NavLink, Stack } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';

export const CLUSTER_SCREENS = [
  { label: 'Overview', path: '' },
  { label: 'Queues', path: 'queues' },
  { label: 'Consumers', path: 'consumers' },
  { label: 'Sessions', path: 'sessions' },
  { label: 'Connections', path: 'connections' },
  { label: 'Events', path: 'events' },
  { label: 'Alerting', path: 'alerting' },
  { label: 'Settings', path: 'settings' },
] as const;

export function clusterScreenHref(clusterId: string, path: string): string {
  return `/clusters/${clusterId}${path ? `/${path}` : ''}`;
}

/** The sidebar of one cluster's screens. */
export function ClusterNav({ clusterId }: { clusterId: string }) {
  const { pathname } = useLocation();
  return (
    <Stack gap={2} component="nav" aria-label="Cluster screens">
      {CLUSTER_SCREENS.map((screen) => {
        const href = clusterScreenHref(clusterId, screen.path);
        const active =
          screen.path === '' ? pathname === href || pathname === `${href}/` : pathname.startsWith(href);
        return (
          <NavLink
            key={screen.label}
            component={Link}
            to={href}
            // TanStack's own idea of active (it sets aria-current) must agree: Overview's path is a prefix of every other.
            activeOptions={{ exact: screen.path === '', includeSearch: false }}
            label={screen.label}
            active={active}
          />
        );
      })}
    </Stack>
  );
}
