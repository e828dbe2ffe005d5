import { Check, Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { Tenant } from '@gatehouse/tenants';

export type AccessTokenTyp = 'JWT' | 'at+jwt';
export const ACCESS_TOKEN_TYPS: AccessTokenTyp[] = ['JWT', 'at+jwt'];

/** The identifier URI of every tenant's built-in admin API. */
export const ADMIN_API_IDENTIFIER = 'api://gatehouse-admin';
/**
 * Entra's resource for tokens that are exchanged elsewhere (a federated credential's default
 * audience). Every tenant answers for it without an API row: see the token endpoint's directory.
 */
export const TOKEN_EXCHANGE_IDENTIFIER = 'api://AzureADTokenExchange';

/** A protected resource (Entra: an app registration that exposes an API). */
@Entity({ name: 'apis' })
@Index('apis_tenant_identifier_key', ['tenantId', 'identifier'], { unique: true })
@Index('apis_app_id_key', ['appId'], { unique: true })
@Check('apis_access_token_version_check', `"access_token_version" IN (1, 2)`)
@Check('apis_access_token_typ_check', `"access_token_typ" IN ('JWT', 'at+jwt')`)
export class Api {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  tenantId: string;

  @ManyToOne(() => Tenant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: Relation<Tenant>;

  /** The `aud` of tokens issued for this API. */
  @Column({ type: 'uuid' })
  appId: string;

  @Column({ type: 'text' })
  identifier: string;

  @Column({ type: 'text' })
  displayName: string;

  @Column({ type: 'boolean', default: false })
  builtIn: boolean;

  /** Entra's `requestedAccessTokenVersion`: 1 (v1 claims, `aud` = identifier) or 2 (the default). */
  @Column({ type: 'smallint', default: 2 })
  accessTokenVersion: number;

  /**
   * The `typ` of its access tokens: `JWT` (the default, as Entra's, what Spring Security and Nimbus
   * accept unless told otherwise) or RFC 9068's `at+jwt`.
   */
  @Column({ type: 'text', default: 'JWT' })
  accessTokenTyp: AccessTokenTyp;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
