import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { Organisation } from '@gatehouse/organisations';
import { Tenant } from '@gatehouse/tenants';
import { User } from '@gatehouse/accounts';

export type ClientState = 'awaiting_scopes' | 'active' | 'disabled';

/** A machine client of the client credentials grant (Entra: an app registration + service principal). */
@Entity({ name: 'api_clients' })
@Index('api_clients_client_id_key', ['clientId'], { unique: true })
@Index('api_clients_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
/** The clients list sorted by name or state: keyset on (column, id), each an index range scan. */
@Index('api_clients_tenant_display_name_idx', ['tenantId', 'displayName', 'id'])
@Index('api_clients_tenant_state_idx', ['tenantId', 'state', 'id'])
@Index('api_clients_owner_idx', ['ownerUserId'])
// Keyset pages of all clients and of those awaiting scopes (migration 1795450592018-KeysetListIndexes).
@Index('api_clients_keyset_idx', { synchronize: false })
@Index('api_clients_awaiting_keyset_idx', { synchronize: false })
@Index('api_clients_organisation_idx', ['organisationId'], { where: '"organisation_id" IS NOT NULL' })
@Check('api_clients_state_check', `"state" IN ('awaiting_scopes', 'active', 'disabled')`)
@Check('api_clients_tokens_per_hour_check', `"tokens_per_hour" > 0`)
export class ApiClient {
  /** The object id: `sub` and `oid` of its tokens. Never equal to any user's id. */
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** The public client id (`client_id`, `azp`). */
  @Column({ type: 'uuid' })
  clientId: string;

  @Column({ type: 'text' })
  displayName: string;

  @Column({ type: 'uuid', nullable: true })
  ownerUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'owner_user_id' })
  owner?: Relation<User>;

  /**
   * The person who created the client (the owner of the acting operator client, or the console
   * user); `null`: the system, or not known. A client owned by someone who did not create it
   * loses its credentials when its owner is given a first role (SECURITY 55).
   */
  @Column({ type: 'uuid', nullable: true })
  createdByUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by_user_id' })
  createdBy?: Relation<User>;

  @Column({ type: 'text', nullable: true })
  contactEmail: string | null;

  /** The partner organisation the client belongs to (§12), if any. */
  @Column({ type: 'uuid', nullable: true })
  organisationId: string | null;

  @ManyToOne(() => Organisation, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'organisation_id' })
  organisation?: Relation<Organisation>;

  @Column({ type: 'text', default: 'awaiting_scopes' })
  state: ClientState;

  /** Where its token requests may come from (IPv4/IPv6 CIDRs, canonical form); null: anywhere. */
  @Column({ type: 'text', array: true, nullable: true })
  allowedSourceRanges: string[] | null;

  /** Tokens it may get per hour (counted by each identity replica); null: no quota. */
  @Column({ type: 'integer', nullable: true })
  tokensPerHour: number | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
