import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';
import { User } from '../user.entity.js';

const bigintAsNumber = { to: (value: number) => value, from: (value: string | null) => (value === null ? 0 : Number(value)) };

/**
 * A passkey (WebAuthn credential): a second factor besides the authenticator app. Only the public
 * key is kept; the signature counter is remembered so that a cloned authenticator is noticed.
 */
@Entity({ name: 'passkeys' })
@Index('passkeys_credential_key', ['credentialId'], { unique: true })
@Index('passkeys_user_idx', ['userId'])
export class Passkey {
  @PrimaryGeneratedColumn('uuid')
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

  /** base64url, as the browser names it. */
  @Column({ type: 'text' })
  credentialId: string;

  /** COSE public key. */
  @Column({ type: 'bytea' })
  publicKey: Buffer;

  @Column({ type: 'bigint', default: 0, transformer: bigintAsNumber })
  signCount: number;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  transports: string[];

  /** What the person called it ("Work laptop"). */
  @Column({ type: 'text' })
  name: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;
}
