import { BrokerEventEntity } from './broker-event.entity';
import { ClusterCredentialEntity } from './cluster-credential.entity';
import { ClusterNodeEntity } from './cluster-node.entity';
import { ClusterEntity } from './cluster.entity';
import { MetricSampleEntity } from './metric-sample.entity';
import { NodeStateEntity } from './node-state.entity';
import { QueueSnapshotEntity } from './queue-snapshot.entity';
import { StudioSettingEntity } from './studio-setting.entity';

export {
  ClusterCredentialEntity,
  ClusterEntity,
  ClusterNodeEntity,
  MetricSampleEntity,
  NodeStateEntity,
  QueueSnapshotEntity,
  StudioSettingEntity,
};
export type { CredentialKind } from './cluster-credential.entity';

export const ENTITIES = [
  ClusterEntity,
  ClusterNodeEntity,
  ClusterCredentialEntity,
  NodeStateEntity,
  QueueSnapshotEntity,
  MetricSampleEntity,
  StudioSettingEntity,
  BrokerEventEntity,
];
