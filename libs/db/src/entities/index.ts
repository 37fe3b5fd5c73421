import { ClusterCredentialEntity } from './cluster-credential.entity';
import { ClusterNodeEntity } from './cluster-node.entity';
import { ClusterEntity } from './cluster.entity';
import { NodeStateEntity } from './node-state.entity';
import { StudioSettingEntity } from './studio-setting.entity';

export { ClusterCredentialEntity, ClusterEntity, ClusterNodeEntity, NodeStateEntity, StudioSettingEntity };
export type { CredentialKind } from './cluster-credential.entity';

/**
 * The tables read and written as entities. One access style per table: the high-volume tables
 * (`queue_snapshot`, `metric_sample`, `queue_tick`, `node_sample`, `node_rollup`, `address_sample`, `broker_event`) are written in batches and read
 * with hand-tuned SQL by their one owner each, so they have no entity to drift from that SQL.
 */
export const ENTITIES = [
  ClusterEntity,
  ClusterNodeEntity,
  ClusterCredentialEntity,
  NodeStateEntity,
  StudioSettingEntity,
];
