import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { Invitation } from './invitation.entity.js';

/**
 * A link of an invitation that a resend replaced: its hash stays known, so that following it
 * says "a newer link was sent to you" instead of "no such link". Goes with its invitation.
 */
@Entity({ name: 'superseded_invitation_links' })
@Index('superseded_invitation_links_token_hash_key', ['tokenHash'], { unique: true })
@Index('superseded_invitation_links_invitation_idx', ['invitationId'])
export class SupersededInvitationLink {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'uuid' })
  invitationId: string;

  @ManyToOne(() => Invitation, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'invitation_id' })
  invitation?: Relation<Invitation>;

  /** HMAC-SHA256(SECRET_PEPPER, token) of the replaced link. */
  @Column({ type: 'bytea', select: false })
  tokenHash: Buffer;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  supersededAt: Date;
}
