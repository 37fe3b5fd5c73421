import { Column, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { ClusterNodeEntity } from './cluster-node.entity';

@Entity('cluster')
export class ClusterEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', name: 'jolokia_origin', nullable: true }) jolokiaOrigin!: string | null;
  /** Every action on this cluster's brokers is refused (issue 28). */
  @Column({ type: 'boolean', name: 'read_only', default: false }) readOnly!: boolean;
  /** Studio's durable ring of notifications on the brokers (ADR-0015): on unless turned off. */
  @Column({ type: 'boolean', name: 'notification_ring', default: true }) notificationRing!: boolean;
  /** The least role that may read message bodies on this cluster (issue 28). */
  @Column({ type: 'text', name: 'message_bodies', default: 'operator' }) messageBodies!:
    'viewer' | 'operator' | 'admin';
  /** Property names and body JSON paths masked before a browsed message leaves the gateway. */
  @Column({ type: 'jsonb', default: () => `'{"properties": [], "bodyPaths": []}'` })
  masking!: { properties: string[]; bodyPaths: string[] };
  @OneToMany(() => ClusterNodeEntity, (node) => node.cluster, { cascade: true }) nodes!: ClusterNodeEntity[];
}
