import type { NodeTierB } from '../../polling/tier-b';
import { AddressFactBuilder, type AddressFact } from '../rules/address-facts';
import type { NodeFigures, QueueFact } from '../rules/conditions';
import { NodeHistory } from '../rules/node-history';
import { QueueFactBuilder } from '../rules/queue-facts';
import type { LinkStalls } from '../rules/link-readings';
import type { QueueBaselines } from '../rules/baseline-readings';
import type { SubjectIndex } from '../rules/subject-index';

/** What one cluster's evaluations keep between ticks: counters for rates, samples for forecasts. */
export interface ClusterMemory {
  queues: QueueFactBuilder;
  addresses: AddressFactBuilder;
  nodes: NodeHistory;
  /** Since when each store-and-forward queue holding messages has delivered none. */
  links: LinkStalls;
  /** The queues' bands at an hour (its start), read once an hour while a baseline rule is in force. */
  baselines: { hour: number; read: QueueBaselines } | null;
  /** The last ticks' figures, for a rule's test: what the rules were last read against. */
  last: {
    nodes: NodeFigures[] | null;
    nodesAt: Date | null;
    /** The last complete tier-B read, and the facts built from it when rules were in force. */
    read: readonly NodeTierB[] | null;
    readAt: Date | null;
    /** Each node's name by id, as the cluster was registered at that read. */
    names: ReadonlyMap<string, string>;
    facts: {
      queues: SubjectIndex<QueueFact> | null;
      addresses: SubjectIndex<AddressFact> | null;
      at: Date;
    } | null;
  };
}

/** A cluster's memory at its first evaluation on this owner: rates and forecasts start afresh. */
export function freshMemory(): ClusterMemory {
  return {
    queues: new QueueFactBuilder(),
    addresses: new AddressFactBuilder(),
    nodes: new NodeHistory(),
    links: new Map(),
    baselines: null,
    last: { nodes: null, nodesAt: null, read: null, readAt: null, names: new Map(), facts: null },
  };
}
