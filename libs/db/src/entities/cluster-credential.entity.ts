import { Column, Entity, PrimaryColumn } from 'typeorm';

export type CredentialKind = 'JOLOKIA' | 'AMQP';

@Entity('cluster_credential')
export class ClusterCredentialEntity {
  @PrimaryColumn({ type: 'uuid', name: 'cluster_id' }) clusterId!: string;
  @PrimaryColumn({ type: 'text' }) kind!: CredentialKind;
  @Column({ type: 'timestamptz', name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
  /** SecretVault output; open it with the same clusterId and kind. */
  @Column({ type: 'bytea' }) sealed!: Buffer;
}
