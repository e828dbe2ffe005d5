import { Injectable } from '@nestjs/common';
import { type Tenant, TenantService } from '@gatehouse/tenants';

/**
 * Which tenant the Web UI belongs to. The UI lives at the root (`/login`, `/docs`,
 * `/invitations/{token}`), so one identity app serves one tenant's UI: the rule is
 * {@link TenantService.uiTenant} (the console's `/console` follows the same one).
 */
@Injectable()
export class UiTenantResolver {
  constructor(private readonly tenants: TenantService) {}

  resolve(): Promise<Tenant | null> {
    return this.tenants.uiTenant();
  }
}
