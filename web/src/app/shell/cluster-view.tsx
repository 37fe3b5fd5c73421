import { KNOWN_TOPICS, type ClusterRemovedFrame } from '@artemis-studio/contracts';
import { notifications } from '@mantine/notifications';
import { getRouteApi, Outlet, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useClusterStream, useStreamListener } from '../../lib/live-context';

const route = getRouteApi('/clusters/$clusterId');

/**
 * Every screen of a cluster: holds the cluster's one stream (all topics) while any of them is on
 * screen, and leaves when the gateway says the cluster was removed.
 */
export function ClusterView() {
  const { clusterId } = route.useParams();
  const navigate = useNavigate();
  useClusterStream(clusterId, KNOWN_TOPICS);
  const listener = useMemo(
    () => ({
      removed: (frame: ClusterRemovedFrame) => {
        notifications.show({
          color: 'orange',
          title: 'Cluster removed',
          message: `This cluster was removed at ${new Date(frame.ts).toLocaleTimeString([], { hour12: false })}; its screens are closed.`,
        });
        void navigate({ to: '/clusters' });
      },
    }),
    [navigate],
  );
  useStreamListener(clusterId, listener);
  return <Outlet />;
}
