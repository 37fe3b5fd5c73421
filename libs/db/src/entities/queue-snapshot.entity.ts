import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './transformers';

const counter = (name: string) => ({ type: 'bigint' as const, name, transformer: bigintAsNumber });
const rate = (name: string) => ({ type: 'double precision' as const, name, nullable: true });

@Entity('queue_snapshot')
export class QueueSnapshotEntity {
  @PrimaryColumn({ type: 'uuid', name: 'node_id' }) nodeId!: string;
  @PrimaryColumn({ type: 'text' }) name!: string;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @Column({ type: 'timestamptz', name: 'observed_at' }) observedAt!: Date;
  /** When any of the values last differed from the previous tick's. */
  @Column({ type: 'timestamptz', name: 'changed_at' }) changedAt!: Date;
  @Column(counter('message_count')) messageCount!: number;
  @Column(counter('delivering_count')) deliveringCount!: number;
  @Column(counter('messages_added')) messagesAdded!: number;
  @Column(counter('messages_acknowledged')) messagesAcknowledged!: number;
  @Column(counter('messages_expired')) messagesExpired!: number;
  @Column(counter('messages_killed')) messagesKilled!: number;
  /** Rates over the last scrape interval; null when unknown (first observation, or a counter reset). */
  @Column(rate('added_per_second')) addedPerSecond!: number | null;
  @Column(rate('acknowledged_per_second')) acknowledgedPerSecond!: number | null;
  @Column(rate('expired_per_second')) expiredPerSecond!: number | null;
  @Column(rate('killed_per_second')) killedPerSecond!: number | null;
  @Column({ type: 'integer', name: 'consumer_count' }) consumerCount!: number;
  @Column({ type: 'boolean' }) paused!: boolean;
  @Column({ type: 'boolean' }) durable!: boolean;
  @Column({ type: 'boolean' }) temporary!: boolean;
  @Column({ type: 'text' }) address!: string;
  @Column({ type: 'text', name: 'routing_type' }) routingType!: string;
}
