import { CreateDateColumn, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { ApiScope } from '@gatehouse/apis';
import { ApiClient } from './api-client.entity.js';

/** One scope of one API granted to one client (Entra: an app role assignment). */
@Entity({ name: 'client_scope_grants' })
@Index('client_scope_grants_scope_idx', ['scopeId'])
export class ClientScopeGrant {
  @PrimaryColumn({ type: 'uuid' })
  apiClientId: string;

  @PrimaryColumn({ type: 'uuid' })
  scopeId: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @ManyToOne(() => ApiClient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_client_id' })
  apiClient?: Relation<ApiClient>;

  @ManyToOne(() => ApiScope, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'scope_id' })
  scope?: Relation<ApiScope>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  /** When a token last carried this scope, to the minute (see ClientSecret.lastUsedAt). */
  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
