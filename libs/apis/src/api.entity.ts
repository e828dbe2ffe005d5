import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';

/** The identifier URI of every tenant's built-in admin API. */
export const ADMIN_API_IDENTIFIER = 'api://gatehouse-admin';

/** A protected resource (Entra: an app registration that exposes an API). */
@Entity({ name: 'apis' })
@Index('apis_tenant_identifier_key', ['tenantId', 'identifier'], { unique: true })
@Index('apis_app_id_key', ['appId'], { unique: true })
export class Api {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** The `aud` of tokens issued for this API. */
  @Column({ type: 'uuid' })
  appId: string;

  @Column({ type: 'text' })
  identifier: string;

  @Column({ type: 'text' })
  displayName: string;

  @Column({ type: 'boolean', default: false })
  builtIn: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
