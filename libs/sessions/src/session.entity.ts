import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { User } from '@gatehouse/accounts';

/** Which UI a session belongs to: its cookie opens that UI only. */
export type SessionKind = 'web' | 'console';

/**
 * A Web UI or console session, kept server-side. The cookie carries 256 random bits; only their
 * SHA-256 is stored here, so a database dump cannot be replayed as a cookie.
 */
@Entity({ name: 'sessions' })
@Check('sessions_kind_check', `"kind" IN ('web', 'console')`)
@Index('sessions_user_active_idx', ['userId'], { where: '"revoked_at" IS NULL' })
@Index('sessions_expires_idx', ['expiresAt'])
export class Session {
  /** SHA-256 of the cookie value. */
  @PrimaryColumn({ type: 'bytea' })
  id: Buffer;

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

  /** Per-session CSRF token put in every form. */
  @Column({ type: 'text' })
  csrfSecret: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  lastSeenAt: Date;

  /** Absolute end of the session, whatever the activity. */
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'text', default: 'web' })
  kind: SessionKind;

  /**
   * When the person last proved a second factor in this session (console). `null`: only the
   * password so far, which opens nothing but the sign-in pages.
   */
  @Column({ type: 'timestamptz', nullable: true })
  secondFactorAt: Date | null;

  /** The browser, as it named itself at sign-in (shortened), to tell sessions apart. */
  @Column({ type: 'text', nullable: true })
  userAgent: string | null;

  /** The client address at sign-in. */
  @Column({ type: 'text', nullable: true })
  source: string | null;

  /** The WebAuthn challenge this session asked a passkey to sign (used once). */
  @Column({ type: 'text', nullable: true })
  webauthnChallenge: string | null;

  /** Messages for the next page shown in this session ("Your password has been changed."). */
  @Column({ type: 'jsonb', nullable: true })
  flash: SessionFlash[] | null;
}

/** A message kept for the next page of a session, shown once. */
export interface SessionFlash {
  kind: 'success' | 'info' | 'warning' | 'error';
  text: string;
}
