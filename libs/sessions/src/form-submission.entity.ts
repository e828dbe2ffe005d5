import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { User } from '@gatehouse/accounts';
import { Tenant } from '@gatehouse/tenants';
import { Session } from './session.entity.js';

/**
 * One sending of a form of a session, keyed by the one-time token every form carries (`_once`).
 * The first sending claims it (`pending`) and records where its result is (`done`); a second
 * sending of the same form — a double click, a reload of a POST, Back and submit again — finds
 * it and lands on that result instead of acting again. `contentHash` catches the same fields sent
 * again on the same path from a fresh copy of the form (Back re-fetches; a second tab).
 */
@Entity({ name: 'form_submissions' })
@Index('form_submissions_path_idx', ['sessionId', 'path', 'createdAt'])
export class FormSubmission {
  @PrimaryColumn({ type: 'bytea' })
  sessionId: Buffer;

  @ManyToOne(() => Session, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'session_id' })
  session?: Relation<Session>;

  @PrimaryColumn({ type: 'text' })
  token: string;

  @Column({ type: 'text' })
  path: string;

  /** SHA-256 of the path and the fields sent (without the tokens). */
  @Column({ type: 'bytea' })
  contentHash: Buffer;

  @Column({ type: 'text', default: 'pending' })
  state: 'pending' | 'done';

  /** Where the result is shown (the page the action redirected to). */
  @Column({ type: 'text', nullable: true })
  location: string | null;

  /** What the action said it did (its flash message). */
  @Column({ type: 'text', nullable: true })
  message: string | null;

  /**
   * A result shown once (a new secret, a generated password), encrypted with a key derived from
   * the browser's session cookie, which the database never holds; removed when shown.
   */
  @Column({ type: 'bytea', nullable: true })
  view: Buffer | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  shownAt: Date | null;
}

/**
 * A form sent after its console session ended: kept (never a password, a code or a secret) so
 * that the same person, signed in again, finds it as typed and sends it with one click.
 */
@Entity({ name: 'form_stashes' })
@Index('form_stashes_expires_idx', ['expiresAt'])
export class FormStash {
  /** SHA-256 of the 256-bit token the sign-in link carries. */
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

  /** The path the form was sent to. */
  @Column({ type: 'text' })
  action: string;

  @Column({ type: 'jsonb' })
  fields: Record<string, string | string[]>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
