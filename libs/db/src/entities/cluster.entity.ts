import { Column, Entity, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { ClusterNodeEntity } from './cluster-node.entity';

@Entity('cluster')
export class ClusterEntity {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'timestamptz', name: 'created_at', default: () => 'now()' }) createdAt!: Date;
  @Column({ type: 'timestamptz', name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', name: 'jolokia_origin', nullable: true }) jolokiaOrigin!: string | null;
  @OneToMany(() => ClusterNodeEntity, (node) => node.cluster, { cascade: true }) nodes!: ClusterNodeEntity[];
}
