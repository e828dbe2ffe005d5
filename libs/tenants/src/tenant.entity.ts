import { Check, Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type SigningAlgorithm = 'RS256' | 'ES256';
export const SIGNING_ALGORITHMS: SigningAlgorithm[] = ['RS256', 'ES256'];
/**
 * What a token request's `scope` may name: `extended` (the default) `.default` or narrower scopes;
 * `entra` only `.default`, as Entra allows for the client credentials grant (for portable clients).
 */
export type ScopeRequests = 'extended' | 'entra';
export const SCOPE_REQUESTS: ScopeRequests[] = ['extended', 'entra'];

@Entity({ name: 'tenants' })
@Check('tenants_signing_algorithm_check', `"signing_algorithm" IN ('RS256', 'ES256')`)
@Check('tenants_scope_requests_check', `"scope_requests" IN ('extended', 'entra')`)
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

  @Column({ type: 'text', default: 'extended' })
  scopeRequests: ScopeRequests;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
