import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './transformers';

/**
 * Reads only (ADR-0028): the event-store's writer inserts with one multi-row statement and goes
 * around this entity. `seq` is GENERATED ALWAYS AS IDENTITY in the migration.
 */
@Entity('broker_event')
export class BrokerEventEntity {
  @PrimaryColumn({ type: 'bigint', transformer: bigintAsNumber }) seq!: number;
  @Column({ type: 'timestamptz', name: 'broker_ts', nullable: true }) brokerTs!: Date | null;
  @Column({ type: 'timestamptz', name: 'received_at' }) receivedAt!: Date;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @Column({ type: 'uuid', name: 'event_id' }) eventId!: string;
  @Column({ type: 'text' }) type!: string;
  @Column({ type: 'text' }) node!: string;
  @Column({ type: 'text', nullable: true }) address!: string | null;
  @Column({ type: 'text', nullable: true }) queue!: string | null;
  @Column({ type: 'text', nullable: true }) consumer!: string | null;
  @Column({ type: 'text', nullable: true }) session!: string | null;
  @Column({ type: 'text', nullable: true }) connection!: string | null;
  @Column({ type: 'text', name: 'remote_address', nullable: true }) remoteAddress!: string | null;
  @Column({ type: 'text', nullable: true }) user!: string | null;
  @Column({ type: 'jsonb' }) props!: Record<string, string | number | boolean | null>;
}
