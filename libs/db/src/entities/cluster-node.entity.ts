import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { ClusterEntity } from './cluster.entity';

@Entity('cluster_node')
export class ClusterNodeEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @ManyToOne(() => ClusterEntity, (cluster) => cluster.nodes, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cluster_id' })
  cluster!: ClusterEntity;
  /** Registration order, so lists and live-node sets are stable. */
  @Column({ type: 'integer' }) position!: number;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', name: 'jolokia_url' }) jolokiaUrl!: string;
  @Column({ type: 'text', name: 'amqp_url', nullable: true }) amqpUrl!: string | null;
}
