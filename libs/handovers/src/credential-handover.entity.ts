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
import { User } from '@gatehouse/accounts';
import { ApiClient } from '@gatehouse/clients';
import { AccessRequest } from '@gatehouse/requests';
import { Tenant } from '@gatehouse/tenants';

export type HandoverStatus = 'pending' | 'revealed' | 'expired' | 'revoked';
export const HANDOVER_STATUSES: HandoverStatus[] = ['pending', 'revealed', 'expired', 'revoked'];

/**
 * A one-time credential handover (the model is Vault's response wrapping): the right to create ONE
 * secret of a client, exercised by whoever opens the mailed link and presses Reveal, before it
 * expires. Nothing secret is stored here: the secret is created at the reveal and shown only then.
 */
@Entity({ name: 'credential_handovers' })
@Index('credential_handovers_token_hash_key', ['tokenHash'], { unique: true })
@Index('credential_handovers_client_idx', ['apiClientId', 'createdAt'])
@Index('credential_handovers_request_idx', ['accessRequestId'], { where: `"access_request_id" IS NOT NULL` })
@Index('credential_handovers_pending_expiry_idx', ['expiresAt'], { where: `"status" = 'pending'` })
// The Overview's queue of handovers that expired unrevealed, counted per tenant.
@Index('credential_handovers_expired_idx', ['tenantId'], { where: `"status" = 'expired'` })
@Check('credential_handovers_status_check', `"status" IN ('pending', 'revealed', 'expired', 'revoked')`)
@Check('credential_handovers_revealed_check', `"status" <> 'revealed' OR "revealed_at" IS NOT NULL`)
export class CredentialHandover {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** The client (its object id) whose secret the handover may create. */
  @Column({ type: 'uuid' })
  apiClientId: string;

  @ManyToOne(() => ApiClient, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'api_client_id' })
  apiClient?: Relation<ApiClient>;

  /** The approved access request this handover delivers, when it went out by itself. */
  @Column({ type: 'uuid', nullable: true })
  accessRequestId: string | null;

  @ManyToOne(() => AccessRequest, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'access_request_id' })
  accessRequest?: Relation<AccessRequest>;

  @Column({ type: 'text' })
  recipientEmail: string;

  /** HMAC-SHA256(SECRET_PEPPER, token) of the link; the token itself is only in the mail. */
  @Column({ type: 'bytea', select: false })
  tokenHash: Buffer;

  @Column({ type: 'text', default: 'pending' })
  status: HandoverStatus;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** The staff member who sent it (`null` when it went out by itself). */
  @Column({ type: 'uuid', nullable: true })
  createdByUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'created_by_user_id' })
  createdBy?: Relation<User>;

  /** Who is told if it expires unrevealed: its sender, or the approver of its access request. */
  @Column({ type: 'uuid', nullable: true })
  responsibleUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'responsible_user_id' })
  responsible?: Relation<User>;

  @Column({ type: 'timestamptz', nullable: true })
  revealedAt: Date | null;

  /** The address the reveal came from. */
  @Column({ type: 'text', nullable: true })
  revealedFrom: string | null;

  /** The key id of the secret the reveal created (revoked with the handover). */
  @Column({ type: 'uuid', nullable: true })
  secretKeyId: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
