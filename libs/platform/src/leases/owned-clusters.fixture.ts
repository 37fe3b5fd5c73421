import type { ClusterTarget } from '@artemis-studio/db';

export const target = { id: 'c1', name: 'prod', revision: '1' } as ClusterTarget;
