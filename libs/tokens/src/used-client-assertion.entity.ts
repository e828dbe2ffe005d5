import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The `jti` of every client assertion accepted, until the assertion could no longer be accepted
 * anyway (its `exp` plus the clock skew allowed): a second use on any replica finds it here.
 * Expired rows are purged by the worker.
 *
 * No foreign keys: each would check (and share-lock) the client's and the tenant's row on every
 * insert, the token endpoint's hot path. A deleted client's or tenant's rows stay until they expire
 * (at most ten minutes and the skew) and go with the purge; nothing reads them but the insert.
 */
@Entity({ name: 'used_client_assertions' })
@Index('used_client_assertions_expiry_idx', ['expiresAt'])
export class UsedClientAssertion {
  @PrimaryColumn({ type: 'uuid' })
  apiClientId: string;

  @PrimaryColumn({ type: 'text' })
  jti: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
