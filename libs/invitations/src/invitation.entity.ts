import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { User } from '@gatehouse/accounts';
import { Tenant } from '@gatehouse/tenants';

export type InvitationStatus = 'pending' | 'accepted' | 'expired' | 'revoked';
export const INVITATION_STATUSES: InvitationStatus[] = ['pending', 'accepted', 'expired', 'revoked'];

/** An invitation link to documentation sections: bound to one user, single use, expiring. */
@Entity({ name: 'invitations' })
@Index('invitations_token_hash_key', ['tokenHash'], { unique: true })
@Index('invitations_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
@Index('invitations_tenant_user_idx', ['tenantId', 'userId'])
@Index('invitations_pending_expiry_idx', ['expiresAt', 'id'], { where: `"status" = 'pending'` })
@Check('invitations_status_check', `"status" IN ('pending', 'accepted', 'expired', 'revoked')`)
export class Invitation {
  /** Time-ordered (UUID version 7, made by the database): the sweep's audit events name them nearly in order. */
  @PrimaryColumn({ type: 'uuid', default: () => 'gatehouse_uuid_v7()' })
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'uuid' })
  userId: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  /** The person who sent it: the one to ask when the link no longer works. */
  @Column({ type: 'uuid', nullable: true })
  invitedByUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invited_by_user_id' })
  invitedBy?: Relation<User>;

  @Column({ type: 'text', array: true })
  sectionSlugs: string[];

  /** HMAC-SHA256(SECRET_PEPPER, token); the token itself is only in the mail. */
  @Column({ type: 'bytea', select: false })
  tokenHash: Buffer;

  @Column({ type: 'text', default: 'pending' })
  status: InvitationStatus;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** When the current link was mailed (creation or the latest resend). */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  linkSentAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  acceptedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
