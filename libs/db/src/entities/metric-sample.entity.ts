import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './transformers';

/**
 * One queue's figures at one tier-B tick, for depth and rate charts. The table has no key of its
 * own (it is appended and reaped, never updated); TypeORM needs one for reads, so the natural
 * (node, queue, time) triple stands in.
 */
@Entity('metric_sample')
export class MetricSampleEntity {
  @PrimaryColumn({ type: 'timestamptz', name: 'sampled_at' }) sampledAt!: Date;
  @PrimaryColumn({ type: 'uuid', name: 'node_id' }) nodeId!: string;
  @PrimaryColumn({ type: 'text' }) queue!: string;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @Column({ type: 'bigint', name: 'message_count', transformer: bigintAsNumber }) messageCount!: number;
  @Column({ type: 'bigint', name: 'messages_added', transformer: bigintAsNumber }) messagesAdded!: number;
  @Column({ type: 'bigint', name: 'messages_acknowledged', transformer: bigintAsNumber })
  messagesAcknowledged!: number;
  @Column({ type: 'integer', name: 'consumer_count' }) consumerCount!: number;
}
