import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { Api } from './api.entity.js';

/** A permission an API exposes to clients (Entra: an app role with allowed member type Application). */
@Entity({ name: 'api_scopes' })
@Index('api_scopes_api_value_key', ['apiId', 'value'], { unique: true })
export class ApiScope {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'uuid' })
  apiId: string;

  @ManyToOne(() => Api, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_id' })
  api?: Relation<Api>;

  @Column({ type: 'text' })
  value: string;

  @Column({ type: 'text', default: '' })
  description: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
