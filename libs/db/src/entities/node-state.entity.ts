import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './transformers';

@Entity('node_state')
export class NodeStateEntity {
  @PrimaryColumn({ type: 'uuid', name: 'node_id' }) nodeId!: string;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @Column({ type: 'timestamptz', name: 'observed_at' }) observedAt!: Date;
  @Column({ type: 'timestamptz', name: 'last_ok_at', nullable: true }) lastOkAt!: Date | null;
  @Column({ type: 'bigint', name: 'uptime_ms', nullable: true, transformer: bigintAsNumber }) uptimeMs!:
    number | null;
  @Column({ type: 'integer', name: 'connection_count', nullable: true }) connectionCount!: number | null;
  @Column({ type: 'boolean' }) reachable!: boolean;
  @Column({ type: 'boolean', nullable: true }) active!: boolean | null;
  @Column({ type: 'boolean', nullable: true }) backup!: boolean | null;
  @Column({ type: 'boolean', name: 'replica_sync', nullable: true }) replicaSync!: boolean | null;
  @Column({ type: 'text' }) role!: 'live' | 'backup' | 'unknown';
  @Column({ type: 'text', name: 'broker_node_id', nullable: true }) brokerNodeId!: string | null;
  @Column({ type: 'text', nullable: true }) version!: string | null;
  @Column({ type: 'text', nullable: true }) reason!: string | null;
  /** The journal's disk usage and the usage past which the broker blocks producers, as fractions. */
  @Column({ type: 'double precision', name: 'disk_usage', nullable: true }) diskUsage!: number | null;
  @Column({ type: 'double precision', name: 'disk_limit', nullable: true }) diskLimit!: number | null;
  /** Memory held by addresses, and the global limit past which they page (or block). */
  @Column({ type: 'bigint', name: 'memory_bytes', nullable: true, transformer: bigintAsNumber })
  memoryBytes!: number | null;
  @Column({ type: 'bigint', name: 'memory_limit_bytes', nullable: true, transformer: bigintAsNumber })
  memoryLimitBytes!: number | null;
  /** The role last seen (kept while unreachable), and when it last changed: a failover or failback. */
  @Column({ type: 'text', name: 'last_role', nullable: true }) lastRole!: 'live' | 'backup' | null;
  @Column({ type: 'timestamptz', name: 'role_changed_at', nullable: true }) roleChangedAt!: Date | null;
}
