import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation, UpdateDateColumn } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';

export type OrganisationState = 'active' | 'offboarded';
export const ORGANISATION_STATES: readonly OrganisationState[] = ['active', 'offboarded'];

/**
 * What one offboarding changed, kept so that Restore reverses exactly that and nothing else: a
 * client that was disabled before the offboarding stays disabled after the restore.
 */
export interface OffboardingRecord {
  /** Users the offboarding disabled (they were active). */
  userIds: string[];
  /** Clients the offboarding disabled (object ids), with the state each had before. */
  clients: Array<{ id: string; clientId: string; state: 'active' | 'awaiting_scopes' }>;
  /** Pending invitations the offboarding revoked. */
  invitationIds: string[];
  /** Pending handovers the offboarding revoked. */
  handoverIds: string[];
  /** Sessions ended (not restored: people sign in again). */
  sessionsEnded: number;
}

/**
 * A partner organisation (the partner company): it groups users, clients, access requests and,
 * through its clients, handovers (§12). Offboarding disables all of it in one transaction.
 */
@Entity({ name: 'organisations' })
@Index('organisations_tenant_name_key', ['tenantId', 'nameNormalized'], { unique: true })
@Index('organisations_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
@Check('organisations_state_check', `"state" IN ('active', 'offboarded')`)
@Check('organisations_name_check', `char_length("name") BETWEEN 1 AND 200`)
@Check('organisations_offboarded_check', `"state" <> 'offboarded' OR "offboarded_at" IS NOT NULL`)
export class Organisation {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** As typed (trimmed, 1 to 200 characters). */
  @Column({ type: 'text' })
  name: string;

  /** Lower-cased name: names are unique per tenant regardless of case. */
  @Column({ type: 'text' })
  nameNormalized: string;

  @Column({ type: 'text', default: 'active' })
  state: OrganisationState;

  @Column({ type: 'timestamptz', nullable: true })
  offboardedAt: Date | null;

  /** The person who offboarded it (no foreign key: users refer to organisations, not back). */
  @Column({ type: 'uuid', nullable: true })
  offboardedByUserId: string | null;

  /** What the last offboarding changed; cleared by the restore that reverses it. */
  @Column({ type: 'jsonb', nullable: true })
  offboarding: OffboardingRecord | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
