import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActivationService, ConsoleActivationService, type User, UserRepository, UserService } from '@gatehouse/accounts';
import { type Actor, AuditService } from '@gatehouse/audit';
import type { Tenant } from '@gatehouse/tenants';
import { requireStaffAdministrator } from './staff-access.service.js';
import { StaffLinks } from './staff-links.js';
import { StaffError, StaffErrorCode } from './staff.errors.js';

/**
 * The console invitation of a person who has not set up their access yet: sent again (a new
 * link; the older one dies) or revoked (every link dies and the roles it was for are taken away,
 * so that no other way in, such as "Forgot your password?", leads into the console). One
 * transaction each, audited; Administrators only, like every staff change.
 */
@Injectable()
export class StaffInvitationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly staffLinks: StaffLinks,
    private readonly users: UserService,
    private readonly userRepository: UserRepository,
    private readonly links: ConsoleActivationService,
    private readonly activation: ActivationService,
    private readonly audit: AuditService,
  ) {}

  async resend(tenant: Tenant, actor: Actor, userId: string): Promise<{ email: string; expiresAt: Date }> {
    requireStaffAdministrator(actor);
    return this.dataSource.transaction(async (em) => {
      const user = await this.invited(em, tenant.id, userId);
      const { expiresAt } = await this.staffLinks.issue(em, tenant, user, 'mail');
      await this.record(em, actor, 'user.staff_invitation_resent', user, { expiresAt });
      return { email: user.email, expiresAt };
    });
  }

  async revoke(tenant: Tenant, actor: Actor, userId: string): Promise<{ displayName: string }> {
    requireStaffAdministrator(actor);
    return this.dataSource.transaction(async (em) => {
      const user = await this.invited(em, tenant.id, userId);
      await this.links.revoke(em, user);
      await this.users.update(tenant.id, actor, user.id, { roles: [] }, { em });
      await this.record(em, actor, 'user.staff_invitation_revoked', user, { roles: user.roles });
      return { displayName: user.displayName };
    });
  }

  /** The person, locked for the change, if they hold a role and have no password (their link is their way in). */
  private async invited(em: EntityManager, tenantId: string, userId: string): Promise<User> {
    const user = await this.userRepository.findById(tenantId, userId, em, true);
    if (!user?.roles.length) throw new StaffError(StaffErrorCode.UserNotFound, 'No such staff member.');
    const { hasPassword } = await this.activation.passwordState(tenantId, user.id, em);
    if (hasPassword || user.status !== 'active') {
      throw new StaffError(
        StaffErrorCode.NotInvited,
        `${user.displayName} has set up their console access already: there is no invitation to resend or revoke.`,
      );
    }
    return user;
  }

  private record(em: EntityManager, actor: Actor, action: string, user: User, details: Record<string, unknown>) {
    return this.audit.record(em, { tenantId: user.tenantId, actor, action, targetType: 'user', targetId: user.id, details });
  }
}
