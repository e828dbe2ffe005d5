import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditService } from '@gatehouse/audit';
import { type Tenant, TenantService, type TenantSettingsInput } from '@gatehouse/tenants';
import type { AdminPrincipal } from './auth/principal.js';

export interface TenantView {
  id: string;
  slug: string;
  displayName: string;
  signingAlgorithm: string;
  accessTokenLifetimeSeconds: number;
  extAccessTokenLifetimeSeconds: number;
}

function toTenantView(tenant: Tenant): TenantView {
  return {
    id: tenant.id,
    slug: tenant.slug,
    displayName: tenant.displayName,
    signingAlgorithm: tenant.signingAlgorithm,
    accessTokenLifetimeSeconds: tenant.accessTokenLifetimeSeconds,
    extAccessTokenLifetimeSeconds: tenant.extAccessTokenLifetimeSeconds,
  };
}

/** Coordinates the tenant settings change with its audit row, in one transaction. */
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

  update(principal: AdminPrincipal, input: TenantSettingsInput): Promise<TenantView> {
    return this.dataSource.transaction(async (em) => {
      const before = toTenantView(await this.tenants.getById(principal.tenantId, em));
      const tenant = await this.tenants.updateSettings(em, principal.tenantId, input);
      await this.audit.record(em, {
        tenantId: principal.tenantId,
        actor: principal,
        action: 'tenant.settings.updated',
        targetType: 'tenant',
        targetId: principal.tenantId,
        details: { before, changes: { ...input } },
      });
      return toTenantView(tenant);
    });
  }
}
