import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * How far the expiry sweep has come: every pending invitation at or before this point in the order
 * (expiry, id) has been audited as expired. One row; a sweeper holds it while it writes a batch, so
 * replicas take turns instead of sweeping the same invitations twice.
 */
@Entity({ name: 'invitation_sweep_position' })
@Check('invitation_sweep_position_single_row', `"id" = 1`)
export class InvitationSweepPosition {
  @PrimaryColumn({ type: 'smallint', default: 1, primaryKeyConstraintName: 'PK_invitation_sweep_position' })
  id: number;

  /** Expiry of the last invitation swept (`-infinity` before the first). */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  /** Id of the last invitation swept, the tie-break among equal expiries. */
  @Column({ type: 'uuid' })
  invitationId: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;
}
