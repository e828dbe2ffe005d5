import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { type Tenant, TenantService } from '@gatehouse/tenants';
import { html } from '@gatehouse/views';
import { ConsolePageError } from './console.errors.js';

/** The tenant a console request is for, and the path its console lives under. */
export interface ConsoleTenant {
  tenant: Tenant;
  /** `/console` for the UI tenant, `/t/{tenant}/console` (as written in the URL) for any tenant. */
  base: string;
}

/**
 * `/console/...` serves the UI tenant (the Web UI's rule: `default`, or the only tenant);
 * `/t/{tenant}/console/...` (slug or id) serves any tenant, so one admin app serves them all.
 */
@Injectable()
export class ConsoleTenantResolver {
  constructor(private readonly tenants: TenantService) {}

  async resolve(req: Request): Promise<ConsoleTenant> {
    const named = typeof req.params.tenant === 'string' ? req.params.tenant : undefined;
    if (named !== undefined) {
      const tenant = /^[A-Za-z0-9-]{1,64}$/.test(named) ? await this.tenants.findByIdOrSlug(named) : null;
      if (!tenant) throw new ConsolePageError(404, 'No such tenant', 'There is no tenant with this name. Check the address.');
      return { tenant, base: `/t/${encodeURIComponent(named)}/console` };
    }
    const tenant = await this.tenants.uiTenant();
    if (!tenant) {
      throw new ConsolePageError(
        404,
        'Choose a tenant',
        html`Several tenants are set up and none is named <code>default</code>. Open
          <code>/t/<em>tenant</em>/console</code> with the slug of yours.`,
      );
    }
    return { tenant, base: '/console' };
  }
}
