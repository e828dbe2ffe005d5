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
import { Invitation } from '@gatehouse/invitations';
import { Organisation } from '@gatehouse/organisations';
import { Tenant } from '@gatehouse/tenants';

export type AccessRequestStatus = 'unverified' | 'submitted' | 'approved' | 'rejected' | 'fulfilled' | 'expired';
export const ACCESS_REQUEST_STATUSES: AccessRequestStatus[] = [
  'unverified',
  'submitted',
  'approved',
  'rejected',
  'fulfilled',
  'expired',
];
/** `web`: the public form (starts unverified); `staff`: filed for someone through the admin API. */
export type AccessRequestOrigin = 'web' | 'staff';

/**
 * A request for a personal account and/or API access for a system. `unverified` until the
 * requester confirms the address, `submitted` until a contact person decides; `approved` becomes
 * `fulfilled` once what was approved has been delivered (activation done, credentials revealed).
 */
@Entity({ name: 'access_requests' })
@Index('access_requests_confirm_token_hash_key', ['confirmTokenHash'], { unique: true })
@Index('access_requests_tenant_created_idx', ['tenantId', 'createdAt', 'id'])
/** The requests list sorted by requester or organisation: keyset on (column, id), each an index range scan. */
@Index('access_requests_tenant_requester_idx', ['tenantId', 'requesterName', 'id'])
@Index('access_requests_tenant_organisation_idx', ['tenantId', 'organisation', 'id'])
@Index('access_requests_open_by_email_idx', ['tenantId', 'requesterEmailNormalized'], {
  where: `"status" IN ('unverified', 'submitted')`,
})
@Index('access_requests_unverified_expiry_idx', ['confirmExpiresAt'], { where: `"status" = 'unverified'` })
@Index('access_requests_user_idx', ['userId'], { where: `"user_id" IS NOT NULL` })
@Index('access_requests_organisation_idx', ['organisationId'], { where: `"organisation_id" IS NOT NULL` })
@Index('access_requests_api_client_idx', ['apiClientId'], { where: `"api_client_id" IS NOT NULL` })
@Check(
  'access_requests_status_check',
  `"status" IN ('unverified', 'submitted', 'approved', 'rejected', 'fulfilled', 'expired')`,
)
@Check('access_requests_origin_check', `"origin" IN ('web', 'staff')`)
@Check('access_requests_kind_check', `"wants_account" OR "wants_api"`)
@Check(
  'access_requests_account_check',
  `NOT "wants_account" OR ("documentation_wanted" IS NOT NULL AND "account_reason" IS NOT NULL)`,
)
@Check(
  'access_requests_api_check',
  `NOT "wants_api" OR ("system_name" IS NOT NULL AND "technical_contact_email" IS NOT NULL AND "api_purpose" IS NOT NULL)`,
)
export class AccessRequest {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @Column({ type: 'text', default: 'unverified' })
  status: AccessRequestStatus;

  @Column({ type: 'text' })
  origin: AccessRequestOrigin;

  @Column({ type: 'text' })
  requesterName: string;

  @Column({ type: 'text' })
  requesterEmail: string;

  /** Lower-cased address: the per-address limit counts open requests by it. */
  @Column({ type: 'text' })
  requesterEmailNormalized: string;

  /** The organisation as the requester typed it. */
  @Column({ type: 'text' })
  organisation: string;

  /** The partner organisation the approval picked or created by that name (§12). */
  @Column({ type: 'uuid', nullable: true })
  organisationId: string | null;

  @ManyToOne(() => Organisation, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'organisation_id' })
  organisationRecord?: Relation<Organisation>;

  @Column({ type: 'boolean' })
  wantsAccount: boolean;

  @Column({ type: 'text', nullable: true })
  documentationWanted: string | null;

  @Column({ type: 'text', nullable: true })
  accountReason: string | null;

  @Column({ type: 'boolean' })
  wantsApi: boolean;

  @Column({ type: 'text', nullable: true })
  systemName: string | null;

  @Column({ type: 'text', nullable: true })
  technicalContactEmail: string | null;

  @Column({ type: 'text', nullable: true })
  apiPurpose: string | null;

  /** The address a web request came from (`X-Forwarded-For` only from `TRUST_PROXY`). */
  @Column({ type: 'text', nullable: true })
  sourceAddress: string | null;

  @Column({ type: 'uuid', nullable: true })
  filedByUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'filed_by_user_id' })
  filedBy?: Relation<User>;

  /** HMAC-SHA256(SECRET_PEPPER, token) of the confirmation link; the token is only in the mail. */
  @Column({ type: 'bytea', nullable: true, select: false })
  confirmTokenHash: Buffer | null;

  @Column({ type: 'timestamptz', nullable: true })
  confirmExpiresAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  confirmedAt: Date | null;

  @Column({ type: 'uuid', nullable: true })
  decidedByUserId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'decided_by_user_id' })
  decidedBy?: Relation<User>;

  @Column({ type: 'timestamptz', nullable: true })
  decidedAt: Date | null;

  /** The approver's or rejecter's note; a rejection's note is mailed to the requester. */
  @Column({ type: 'text', nullable: true })
  decisionNote: string | null;

  /** Documentation sections the approval invited the new user to. */
  @Column({ type: 'text', array: true, default: () => `'{}'` })
  sectionSlugs: string[];

  /** The account the approval created. */
  @Column({ type: 'uuid', nullable: true })
  userId: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'user_id' })
  user?: Relation<User>;

  /** The API client the approval created (its object id). */
  @Column({ type: 'uuid', nullable: true })
  apiClientId: string | null;

  @ManyToOne(() => ApiClient, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'api_client_id' })
  apiClient?: Relation<ApiClient>;

  @Column({ type: 'uuid', nullable: true })
  invitationId: string | null;

  @ManyToOne(() => Invitation, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'invitation_id' })
  invitation?: Relation<Invitation>;

  /** When the new user set a password with the activation link. */
  @Column({ type: 'timestamptz', nullable: true })
  accountDeliveredAt: Date | null;

  /** When the API client's credentials were revealed through a handover. */
  @Column({ type: 'timestamptz', nullable: true })
  credentialsDeliveredAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  fulfilledAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
