import { Spotlight, type SpotlightActionData } from '@mantine/spotlight';
import { useNavigate, useParams } from '@tanstack/react-router';
import { useClusters } from '../../lib/clusters/get-clusters';
import { useLive, usePause } from '../../lib/live-context';
import { CLUSTER_SCREENS, clusterScreenHref } from './cluster-nav';

/** Ctrl/Cmd+K: refresh, pause, and every screen by name. Refresh has no hotkey of its own (ADR-0052). */
export function CommandPalette() {
  const live = useLive();
  const paused = usePause().paused;
  const navigate = useNavigate();
  const clusters = useClusters();
  const { clusterId } = useParams({ strict: false });
  const go = (to: string) => () => void navigate({ to });

  const actions: SpotlightActionData[] = [
    {
      id: 'refresh',
      label: 'Refresh',
      description: 'Refetch everything on this screen now',
      onClick: () => void live.queryClient.refetchQueries({ type: 'active' }),
    },
    {
      id: 'pause',
      label: paused ? 'Resume updates' : 'Pause updates',
      description: paused ? 'Bring in what arrived while paused' : 'Freeze this screen; new data waits',
      onClick: () => live.pause.toggle(),
    },
    { id: 'clusters', label: 'Clusters', description: 'Every registered cluster', onClick: go('/clusters') },
    {
      id: 'settings',
      label: 'Runtime settings',
      description: 'Intervals, caps, retention',
      onClick: go('/settings'),
    },
  ];
  const current = clusters.data?.find((c) => c.id === clusterId);
  if (current)
    for (const screen of CLUSTER_SCREENS)
      actions.push({
        id: `screen-${screen.label}`,
        label: `${screen.label}`,
        description: `${current.name}`,
        onClick: go(clusterScreenHref(current.id, screen.path)),
      });
  for (const cluster of clusters.data ?? [])
    actions.push({
      id: `cluster-${cluster.id}`,
      label: cluster.name,
      description: `Cluster overview · ${cluster.nodes.length} node${cluster.nodes.length === 1 ? '' : 's'}`,
      onClick: go(clusterScreenHref(cluster.id, '')),
    });

  return (
    <Spotlight
      actions={actions}
      shortcut={['mod + K']}
      nothingFound="Nothing matches"
      highlightQuery
      searchProps={{ placeholder: 'Go to a screen or cluster, refresh, pause…', 'aria-label': 'Command' }}
    />
  );
}
