import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type SigningAlgorithm = 'RS256' | 'ES256';
export const SIGNING_ALGORITHMS: SigningAlgorithm[] = ['RS256', 'ES256'];

@Entity({ name: 'tenants' })
@Check('tenants_signing_algorithm_check', `"signing_algorithm" IN ('RS256', 'ES256')`)
@Check('tenants_lifetimes_check', `"access_token_lifetime_seconds" BETWEEN 300 AND 86400 AND "ext_access_token_lifetime_seconds" >= "access_token_lifetime_seconds"`)
export class Tenant {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('tenants_slug_key', { unique: true })
  @Column({ type: 'text' })
  slug: string;

  @Column({ type: 'text' })
  displayName: string;

  @Column({ type: 'text', default: 'RS256' })
  signingAlgorithm: SigningAlgorithm;

  @Column({ type: 'integer', default: 3599 })
  accessTokenLifetimeSeconds: number;

  @Column({ type: 'integer', default: 3599 })
  extAccessTokenLifetimeSeconds: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
