import { Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { FailureWindowColumns } from '@gatehouse/database';
import { Tenant } from '@gatehouse/tenants';

/**
 * Password-reset requests per subject within a window: `source:{address}` (the form's per-source
 * throttle, answered with 429) and `address:{email}` (the links mailed to one mailbox; beyond the
 * limit nothing more is sent, and the form's answer stays the same).
 */
@Entity({ name: 'password_reset_throttles' })
export class PasswordResetThrottle extends FailureWindowColumns {
  @PrimaryColumn({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  @PrimaryColumn({ type: 'text' })
  subject: string;
}
