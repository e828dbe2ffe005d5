import { Injectable } from '@nestjs/common';
import { StaffAccessService, StaffInvitationService } from '@gatehouse/provisioning';
import { utc } from '@gatehouse/views';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { revokeConfirmation } from './staff-invitation.pages.js';

/** Resending and revoking the console invitation of someone who has not set up their access yet. */
@Injectable()
export class StaffInvitationPresenter {
  constructor(
    private readonly staff: StaffAccessService,
    private readonly invitations: StaffInvitationService,
  ) {}

  async resend(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    const sent = await this.invitations.resend(who.tenant, who, id);
    const text = `A new invitation went to ${sent.email}; it works once, until ${utc(sent.expiresAt)}. The older link no longer works.`;
    return { redirect: `${who.base}/staff/${id}`, flash: { kind: 'success', text } };
  }

  async confirmRevoke(who: ConsolePrincipal, id: string): Promise<ConsoleView> {
    const member = await this.staff.member(who.tenantId, who, id);
    return {
      title: 'Revoke the invitation?',
      breadcrumbs: [
        { label: 'Staff', href: `${who.base}/staff` },
        { label: member.displayName, href: `${who.base}/staff/${id}` },
        { label: 'Revoke invitation' },
      ],
      body: revokeConfirmation({ base: who.base, csrf: who.csrfToken, member }),
    };
  }

  async revoke(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    const revoked = await this.invitations.revoke(who.tenant, who, id);
    const text = `The invitation of ${revoked.displayName} was revoked: the link no longer works and they hold no role now.`;
    return { redirect: `${who.base}/staff`, flash: { kind: 'success', text } };
  }
}
