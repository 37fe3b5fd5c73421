import type { StrandedReason } from '@artemis-studio/contracts';

/** Why stranded messages stay where they are, in a line (docs/clusters.md says more). */
export const STRANDED_WHY: Record<StrandedReason, string> = {
  'not-clustered': 'its node is in no cluster connection',
  'no-shared-bindings': 'the cluster connection has max-hops 0: the nodes share no bindings',
  'redistribution-off': 'redistribution is off for the address (redistribution-delay -1)',
  'redistribution-delayed': 'redistribution waits out its delay',
  'link-not-draining': 'the store-and-forward link to the consumers’ node does not drain',
  unknown: 'Studio cannot tell why',
};
