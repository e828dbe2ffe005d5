import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { announceChange, uniqueViolation } from '@gatehouse/database';
import { SCOPE_REQUESTS, SIGNING_ALGORITHMS, type ScopeRequests, type SigningAlgorithm, Tenant } from './tenant.entity.js';
import { TenantError, TenantErrorCode } from './tenant.errors.js';
import { TenantRepository } from './tenant.repository.js';

export const TENANT_SLUG = /^[a-z0-9-]{2,63}$/;
export const MIN_TOKEN_LIFETIME_SECONDS = 300;
export const MAX_TOKEN_LIFETIME_SECONDS = 86_400;

export interface TenantSettingsInput {
  /** The name pages and mails call the tenant by (its slug only ever appears in paths). */
  displayName?: string;
  signingAlgorithm?: SigningAlgorithm;
  accessTokenLifetimeSeconds?: number;
  extAccessTokenLifetimeSeconds?: number;
  scopeRequests?: ScopeRequests;
}

/**
 * Called (inside the settings transaction) when a tenant's signing algorithm changes, so a key of
 * the new algorithm is rolled in at once. The tokens library registers itself here; tenants does
 * not depend on tokens (dependencies point one way).
 */
export type AlgorithmChangeHook = (em: EntityManager, tenant: Tenant) => Promise<void>;

/** The slug of the tenant whose UI paths without a tenant serve, when several tenants exist. */
export const UI_TENANT_SLUG = 'default';

@Injectable()
export class TenantService {
  private algorithmChangeHooks: AlgorithmChangeHook[] = [];

  constructor(private readonly tenants: TenantRepository) {}

  onAlgorithmChange(hook: AlgorithmChangeHook): void {
    this.algorithmChangeHooks.push(hook);
  }

  /** A new tenant; `signingAlgorithm` lets it start with its algorithm (RS256 when left out). */
  async create(em: EntityManager, input: { slug: string; displayName: string; signingAlgorithm?: SigningAlgorithm }): Promise<Tenant> {
    if (!TENANT_SLUG.test(input.slug) || /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(input.slug)) {
      throw new TenantError(TenantErrorCode.InvalidSlug, 'slug must be 2-63 characters of a-z, 0-9 and -');
    }
    const displayName = input.displayName.trim();
    try {
      const tenant = await this.tenants.insert(em, {
        slug: input.slug,
        displayName: displayName || input.slug,
        ...(input.signingAlgorithm ? { signingAlgorithm: input.signingAlgorithm } : {}),
      });
      await announceChange(em, 'tenant', tenant.id, '*');
      return tenant;
    } catch (error) {
      if (uniqueViolation(error) === 'tenants_slug_key') {
        throw new TenantError(TenantErrorCode.SlugTaken, `slug "${input.slug}" is already taken`);
      }
      throw error;
    }
  }

  findByIdOrSlug(idOrSlug: string): Promise<Tenant | null> {
    return this.tenants.findByIdOrSlug(idOrSlug);
  }

  /**
   * The tenant whose UI is served at paths that name no tenant (the Web UI's `/login`, the
   * console's `/console`): the tenant with slug `default`, or else the only tenant when exactly
   * one exists; otherwise none. The one place to change when the choice becomes configurable.
   */
  uiTenant(): Promise<Tenant | null> {
    return this.tenants.findNamedOrOnly(UI_TENANT_SLUG);
  }

  async getById(tenantId: string, em?: EntityManager): Promise<Tenant> {
    const tenant = await this.tenants.findById(tenantId, em);
    if (!tenant) throw new TenantError(TenantErrorCode.NotFound, 'tenant not found');
    return tenant;
  }

  /**
   * The tenant, its row locked against a settings change until the transaction ends (rows that
   * merely refer to it, like a new signing key, are not held up). A change of its signing keys
   * takes this lock first, as a change of its settings does, so the two never wait on each other
   * in turn.
   */
  async lock(em: EntityManager, tenantId: string): Promise<Tenant> {
    const tenant = await this.tenants.lockById(em, tenantId);
    if (!tenant) throw new TenantError(TenantErrorCode.NotFound, 'tenant not found');
    return tenant;
  }

  async updateSettings(em: EntityManager, tenantId: string, input: TenantSettingsInput): Promise<Tenant> {
    const current = await this.tenants.lockById(em, tenantId);
    if (!current) throw new TenantError(TenantErrorCode.NotFound, 'tenant not found');
    const next: Tenant = { ...current, ...definedOnly({ ...input, displayName: input.displayName?.trim() || undefined }) };
    validateSettings(next);
    await this.tenants.updateSettings(em, tenantId, {
      displayName: next.displayName,
      signingAlgorithm: next.signingAlgorithm,
      accessTokenLifetimeSeconds: next.accessTokenLifetimeSeconds,
      extAccessTokenLifetimeSeconds: next.extAccessTokenLifetimeSeconds,
      scopeRequests: next.scopeRequests,
    });
    if (next.signingAlgorithm !== current.signingAlgorithm) {
      for (const hook of this.algorithmChangeHooks) await hook(em, next);
    }
    await announceChange(em, 'tenant', tenantId, '*');
    return this.getById(tenantId, em);
  }
}

function definedOnly(input: TenantSettingsInput): TenantSettingsInput {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
}

function validateSettings(tenant: Tenant): void {
  if (!SIGNING_ALGORITHMS.includes(tenant.signingAlgorithm)) {
    throw new TenantError(TenantErrorCode.InvalidAlgorithm, `signingAlgorithm must be one of ${SIGNING_ALGORITHMS.join(', ')}`);
  }
  if (!SCOPE_REQUESTS.includes(tenant.scopeRequests)) {
    throw new TenantError(TenantErrorCode.InvalidScopeRequests, `scopeRequests must be one of ${SCOPE_REQUESTS.join(', ')}`);
  }
  const inRange = (n: number) =>
    Number.isInteger(n) && n >= MIN_TOKEN_LIFETIME_SECONDS && n <= MAX_TOKEN_LIFETIME_SECONDS;
  if (!inRange(tenant.accessTokenLifetimeSeconds) || !inRange(tenant.extAccessTokenLifetimeSeconds)) {
    throw new TenantError(TenantErrorCode.InvalidLifetime, 'token lifetimes must be whole seconds within 300..86400');
  }
  if (tenant.extAccessTokenLifetimeSeconds < tenant.accessTokenLifetimeSeconds) {
    throw new TenantError(TenantErrorCode.InvalidLifetime, 'extAccessTokenLifetimeSeconds must be ≥ accessTokenLifetimeSeconds');
  }
}
