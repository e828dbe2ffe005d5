import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type Tenant, TenantService, type TenantSettingsInput } from '@gatehouse/tenants';

export interface TenantView {
  id: string;
  slug: string;
  displayName: string;
  signingAlgorithm: string;
  accessTokenLifetimeSeconds: number;
  extAccessTokenLifetimeSeconds: number;
  scopeRequests: string;
}

function toTenantView(tenant: Tenant): TenantView {
  return {
    id: tenant.id,
    slug: tenant.slug,
    displayName: tenant.displayName,
    signingAlgorithm: tenant.signingAlgorithm,
    accessTokenLifetimeSeconds: tenant.accessTokenLifetimeSeconds,
    extAccessTokenLifetimeSeconds: tenant.extAccessTokenLifetimeSeconds,
    scopeRequests: tenant.scopeRequests,
  };
}

/**
 * The tenant's own settings (signing algorithm, token lifetimes): read, and changed together with
 * its audit row in one transaction. The admin API and the console call exactly this.
 */
@Injectable()
export class TenantSettingsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tenants: TenantService,
    private readonly audit: AuditService,
  ) {}

  async get(tenantId: string): Promise<TenantView> {
    return toTenantView(await this.tenants.getById(tenantId));
  }

  update(tenantId: string, actor: Actor, input: TenantSettingsInput): Promise<TenantView> {
    return this.dataSource.transaction(async (em) => {
      const before = toTenantView(await this.tenants.getById(tenantId, em));
      const tenant = await this.tenants.updateSettings(em, tenantId, input);
      await this.audit.record(em, {
        tenantId,
        actor,
        action: 'tenant.settings.updated',
        targetType: 'tenant',
        targetId: tenantId,
        details: { before, changes: { ...input } },
      });
      return toTenantView(tenant);
    });
  }
}
