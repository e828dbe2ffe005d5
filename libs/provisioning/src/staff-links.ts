import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ConsoleActivationService, type LinkDelivery, type User, roleNames } from '@gatehouse/accounts';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { MailOutbox, staffInvitationEmail } from '@gatehouse/mail';
import { type Tenant, TenantService } from '@gatehouse/tenants';

/** A console activation link just issued: mailed, or (`return`) to be shown once by the caller. */
export interface IssuedStaffLink {
  url: string;
  expiresAt: Date;
}

/**
 * The one-time console activation link of a staff member (`{console}/activate/{token}`: choose a
 * password, set up an authenticator app) and its mail. Issuing one kills the person's older links.
 */
@Injectable()
export class StaffLinks {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tenants: TenantService,
    private readonly links: ConsoleActivationService,
    private readonly outbox: MailOutbox,
  ) {}

  /** Where a tenant's console lives: `/console` for the UI tenant, `/t/{slug}/console` for the others. */
  async consoleBase(tenant: Tenant): Promise<string> {
    const ui = await this.tenants.uiTenant();
    return `${this.config.adminPublicUrl}${ui?.id === tenant.id ? '' : `/t/${encodeURIComponent(tenant.slug)}`}/console`;
  }

  /** In the caller's transaction: a new link for the person, mailed to them when `delivery` is `mail`. */
  async issue(em: EntityManager, tenant: Tenant, user: User, delivery: LinkDelivery): Promise<IssuedStaffLink> {
    const base = await this.consoleBase(tenant);
    const { token, expiresAt } = await this.links.issue(em, user);
    const url = `${base}/activate/${token}`;
    if (delivery === 'mail') {
      const mail = staffInvitationEmail({
        displayName: user.displayName,
        username: user.username,
        role: roleNames(user.roles),
        organisation: tenant.displayName,
        link: url,
        expiresAt,
      });
      await this.outbox.enqueue(em, { tenantId: tenant.id, to: user.email, mail });
    }
    return { url, expiresAt };
  }
}
