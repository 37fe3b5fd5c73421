import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { describeError } from '../../../lib/api-client';

/** Asks first: removing a cluster drops its registration, state and stored credentials. */
export function confirmRemoveCluster(
  cluster: { id: string; name: string },
  remove: (clusterId: string) => Promise<unknown>,
  then?: () => void,
): void {
  modals.openConfirmModal({
    title: `Remove ${cluster.name}?`,
    children:
      'Studio stops polling and listening to this cluster and forgets its registration, stored credentials and observed state. The brokers are not touched.',
    labels: { confirm: 'Remove cluster', cancel: 'Keep it' },
    confirmProps: { color: 'red' },
    onConfirm: () =>
      void remove(cluster.id).then(
        () => {
          notifications.show({ message: `${cluster.name} was removed.` });
          then?.();
        },
        (error) => notifications.show({ color: 'red', title: 'Not removed', message: describeError(error) }),
      ),
  });
}
