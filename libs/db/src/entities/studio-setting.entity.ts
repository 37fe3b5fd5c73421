import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('studio_setting')
export class StudioSettingEntity {
  @PrimaryColumn({ type: 'text' }) key!: string;
  @Column({ type: 'timestamptz', name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
  @Column({ type: 'jsonb' }) value!: unknown;
}
