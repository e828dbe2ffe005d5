import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { UserService } from '@gatehouse/accounts';
import { ADMIN_API_IDENTIFIER, ApiRepository, ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { type ApiClient, ClientService } from '@gatehouse/clients';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { type SigningAlgorithm, type Tenant, TenantError, TenantErrorCode, TenantService } from '@gatehouse/tenants';
import { SigningKeyService } from '@gatehouse/tokens';
import { ProvisioningRepository } from './provisioning.repository.js';

export const BOOTSTRAP_USERNAME = 'admin';
export const BOOTSTRAP_CLIENT_NAME = 'Bootstrap administrator';

export interface BootstrapInput {
  tenant: string;
  /** Issue a new secret even though the operator's client already has a usable one. */
  rotateSecret: boolean;
  /** The new tenant's signing algorithm (RS256 when left out); an existing tenant must already have it. */
  algorithm?: SigningAlgorithm;
  /** What pages and mails call a new tenant (its slug in words when left out: "acme-logistics" → "Acme logistics"). */
  displayName?: string;
}

/** What an operator needs to get an admin token. `clientSecret` is present only when minted now. */
export interface BootstrapResult {
  tenant: string;
  tenantId: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecret?: string;
  scope: string;
  tenantCreated: boolean;
}

/**
 * Creates a tenant with its built-in admin API and signing key, an Administrator operator and that
 * operator's client, and mints the client's first secret. Safe to rerun: it finds what exists and
 * mints no second secret unless asked to rotate.
 */
@Injectable()
export class BootstrapService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: ProvisioningRepository,
    private readonly tenants: TenantService,
    private readonly apis: ApiService,
    private readonly apiRepository: ApiRepository,
    private readonly keys: SigningKeyService,
    private readonly users: UserService,
    private readonly clients: ClientService,
  ) {}

  async isDatabaseEmpty(): Promise<boolean> {
    return !(await this.repository.hasAnyTenant(this.dataSource.manager));
  }

  async bootstrap(input: BootstrapInput): Promise<BootstrapResult> {
    return this.dataSource.transaction(async (em) => {
      await this.repository.lockSlug(em, input.tenant);
      const existing = await this.repository.findTenantBySlug(em, input.tenant);
      if (existing && input.algorithm && existing.signingAlgorithm !== input.algorithm) throw algorithmDiffers(existing);
      const tenant =
        existing ??
        (await this.tenants.create(em, { slug: input.tenant, displayName: input.displayName?.trim() || slugInWords(input.tenant), signingAlgorithm: input.algorithm }));
      await this.ensureAdminApi(em, tenant);
      const client = await this.ensureOperatorClient(em, tenant.id);
      const clientId = client.clientId;
      const usable = await this.repository.countUsableSecrets(em, client.id);
      const secret =
        usable === 0 || input.rotateSecret
          ? await this.clients.issueSecret(tenant.id, SYSTEM_ACTOR, clientId, { displayName: 'bootstrap' }, em)
          : undefined;
      return {
        tenant: tenant.slug,
        tenantId: tenant.id,
        tokenEndpoint: `${this.config.publicUrl}/${tenant.id}/oauth2/v2.0/token`,
        clientId,
        clientSecret: secret?.secretText,
        scope: `${ADMIN_API_IDENTIFIER}/.default`,
        tenantCreated: !existing,
      };
    });
  }

  private async ensureAdminApi(em: EntityManager, tenant: Tenant): Promise<void> {
    const api = await this.apiRepository.findByIdentifier(tenant.id, ADMIN_API_IDENTIFIER, em);
    if (!api) await this.apis.createBuiltInAdminApi(em, tenant.id);
    await this.keys.ensureActiveKey(em, tenant.id, tenant.signingAlgorithm);
  }

  private async ensureOperatorClient(em: EntityManager, tenantId: string): Promise<ApiClient> {
    const user =
      (await this.repository.findUser(em, tenantId, BOOTSTRAP_USERNAME)) ??
      (await this.users.create(
        tenantId,
        SYSTEM_ACTOR,
        {
          username: BOOTSTRAP_USERNAME,
          email: 'admin@localhost',
          displayName: 'Administrator',
          roles: ['Administrator'],
          password: 'none', // works through its client; no mail to a placeholder address
        },
        em,
      ));
    const existing = await this.repository.findOwnedClient(em, tenantId, user.id, BOOTSTRAP_CLIENT_NAME);
    if (existing) return existing;
    await this.clients.create(tenantId, SYSTEM_ACTOR, { displayName: BOOTSTRAP_CLIENT_NAME, ownerUserId: user.id }, em);
    const created = await this.repository.findOwnedClient(em, tenantId, user.id, BOOTSTRAP_CLIENT_NAME);
    if (!created) throw new Error('bootstrap client was not created');
    return created;
  }
}

function algorithmDiffers(tenant: Tenant): TenantError {
  return new TenantError(
    TenantErrorCode.InvalidAlgorithm,
    `Tenant ${tenant.slug} exists and signs with ${tenant.signingAlgorithm}. Change its algorithm with PATCH /admin/v1/tenant: the new key is published at once and signs a day later.`,
  );
}

/** A slug read as words, for a tenant created without a display name. */
function slugInWords(slug: string): string {
  const words = slug.replace(/[-_.]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
