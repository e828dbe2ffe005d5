import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { UserCredentialsService, UserService, type UserView } from '@gatehouse/accounts';
import { DocService } from '@gatehouse/docs';
import { InvitationError, InvitationService, type InvitationView } from '@gatehouse/invitations';
import { type SafeHtml, html, utc } from '@gatehouse/views';
import { ConsolePageError } from '../frame/console.errors.js';
import { field, fieldList } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleNext, ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { confirmation, generateAlternative, generatedPassword } from './user-detail.pages.js';
import { UsersPresenter, invitationErrors } from './users.presenter.js';

/**
 * What the console does to one user: disable and enable, unlock, reset the password, close a
 * documentation section, send, resend and revoke invitations — the REST API's use cases, the
 * destructive ones behind a confirmation page that names the user and the effect.
 */
@Injectable()
export class UserActionsPresenter {
  constructor(
    private readonly users: UserService,
    private readonly credentials: UserCredentialsService,
    private readonly docs: DocService,
    private readonly invitations: InvitationService,
    private readonly pages: UsersPresenter,
  ) {}

  async confirm(who: ConsolePrincipal, id: string, what: 'disable' | 'reset-password'): Promise<ConsoleView> {
    const user = await this.users.get(who.tenantId, id);
    const name = html`<strong>${user.displayName}</strong> (<code>${user.username}</code>)`;
    const texts: Record<typeof what, { title: string; effect: SafeHtml; submit: string }> = {
      disable: {
        title: `Disable ${user.displayName}?`,
        effect: html`${name} can no longer sign in; their sessions end at once and API clients they own get no more tokens. Enable them again at any time.`,
        submit: 'Disable the user',
      },
      'reset-password': {
        title: `Reset the password of ${user.displayName}?`,
        effect: html`The current password of ${name} stops working at once and their sessions end. A link to choose a new one (valid 24 hours) goes to ${user.email}.`,
        submit: 'Reset the password',
      },
    };
    // A person who holds a role never gets a generated password (SECURITY 56).
    const alternative = what === 'reset-password' && !user.roles.length ? generateAlternative({ base: who.base, csrf: who.csrfToken, user }) : undefined;
    return this.confirmation(who, user, what, { ...texts[what], alternative });
  }

  async disable(who: ConsolePrincipal, id: string): Promise<ConsoleNext> {
    const user = await this.users.disable(who.tenantId, who, id);
    return done(who, user, `${user.displayName} is disabled: they cannot sign in and their clients get no tokens.`);
  }

  async enable(who: ConsolePrincipal, id: string): Promise<ConsoleNext> {
    const user = await this.users.enable(who.tenantId, who, id);
    return done(who, user, `${user.displayName} is enabled and can sign in again.`);
  }

  async unlock(who: ConsolePrincipal, id: string): Promise<ConsoleNext> {
    const user = await this.credentials.unlock(who.tenantId, who, id);
    return done(who, user, `${user.displayName} is unlocked and can sign in again now.`);
  }

  async resetPassword(who: ConsolePrincipal, id: string): Promise<ConsoleNext> {
    const user = await this.credentials.resetPassword(who.tenantId, who, id, 'activation-link');
    return done(who, user, `The password of ${user.displayName} was reset. A link to choose a new one went to ${user.email}.`);
  }

  /** The REST `mode: "generate"`: a one-time password, shown on this page only (behind a fresh second factor). */
  async resetGenerated(who: ConsolePrincipal, id: string): Promise<ConsoleView> {
    const { initialPassword, ...user } = await this.credentials.resetPassword(who.tenantId, who, id, 'generate');
    return {
      title: `One-time password for ${user.displayName}`,
      shownOnce: true,
      breadcrumbs: [{ label: 'Users', href: `${who.base}/users` }, { label: user.displayName, href: `${who.base}/users/${id}` }, { label: 'One-time password' }],
      flash: [{ kind: 'success', text: `The password of ${user.displayName} was reset and their sessions ended. Copy the new one now: it will not be shown again.` }],
      body: generatedPassword({ base: who.base, user, password: initialPassword! }),
    };
  }

  async confirmClose(who: ConsolePrincipal, id: string, slug: string): Promise<ConsoleView> {
    const user = await this.users.get(who.tenantId, id);
    const section = (await this.docs.sectionsOf(who.tenantId, id)).find((s) => s.slug === slug);
    if (!section) throw new ConsolePageError(404, 'Not open', 'That section is not open to this user.');
    return this.confirmation(who, user, `sections/${slug}/close`, {
      title: `Close ${section.title} to ${user.displayName}?`,
      effect: html`<strong>${user.displayName}</strong> can no longer read <strong>${section.title}</strong> (<code>${slug}</code>). To open it again, send a new invitation.`,
      submit: 'Close the section',
    });
  }

  async close(who: ConsolePrincipal, id: string, slug: string): Promise<ConsoleNext> {
    await this.docs.revokeAccess(who.tenantId, who, id, slug);
    const user = await this.users.get(who.tenantId, id);
    return done(who, user, `${user.displayName} can no longer read ${slug}.`);
  }

  async invite(who: ConsolePrincipal, id: string, req: Request): Promise<ConsoleResult> {
    const values = { sections: fieldList(req, 'sections'), expiresInHours: field(req, 'expiresInHours').trim() };
    const errors = await invitationErrors(id, values.sections, values.expiresInHours);
    if (Object.keys(errors).length) return this.pages.detail(who, id, { inviteValues: values, inviteErrors: errors });
    try {
      const sent = await this.invitations.create(who.tenantId, who, { userId: id, sections: values.sections, expiresInHours: Number(values.expiresInHours) });
      return { redirect: `${who.base}/users/${id}`, flash: { kind: 'success', text: invitationSent(sent) } };
    } catch (error) {
      if (!(error instanceof InvitationError)) throw error;
      return this.pages.detail(who, id, { inviteValues: values, inviteErrors: { sections: error.message } });
    }
  }

  async resend(who: ConsolePrincipal, id: string, invitationId: string): Promise<ConsoleNext> {
    await this.invitationOf(who, id, invitationId);
    const sent = await this.invitations.resend(who.tenantId, who, invitationId);
    return { redirect: `${who.base}/users/${id}`, flash: { kind: 'success', text: `${invitationSent(sent)} The previous link no longer works.` } };
  }

  async confirmRevoke(who: ConsolePrincipal, id: string, invitationId: string): Promise<ConsoleView> {
    const invitation = await this.invitationOf(who, id, invitationId);
    const user = await this.users.get(who.tenantId, id);
    return this.confirmation(who, user, `invitations/${invitationId}/revoke`, {
      title: `Revoke the invitation of ${user.displayName}?`,
      effect: html`The link sent to ${user.email} for ${invitation.sections.join(', ')} stops working at once; the sections stay closed. You can send a new invitation later.`,
      submit: 'Revoke the invitation',
    });
  }

  async revoke(who: ConsolePrincipal, id: string, invitationId: string): Promise<ConsoleNext> {
    await this.invitationOf(who, id, invitationId);
    await this.invitations.revoke(who.tenantId, who, invitationId);
    return { redirect: `${who.base}/users/${id}`, flash: { kind: 'success', text: 'The invitation was revoked: its link no longer works.' } };
  }

  /** The invitation, when it is this user's (else 404, as for an unknown one). */
  private async invitationOf(who: ConsolePrincipal, userId: string, invitationId: string): Promise<InvitationView> {
    const invitation = await this.invitations.get(who.tenantId, invitationId);
    if (invitation.userId !== userId) throw new ConsolePageError(404, 'Not found', 'This user has no such invitation.');
    return invitation;
  }

  private confirmation(who: ConsolePrincipal, user: UserView, path: string, text: { title: string; effect: SafeHtml; submit: string; alternative?: SafeHtml }): ConsoleView {
    return {
      title: text.title,
      breadcrumbs: [
        { label: 'Users', href: `${who.base}/users` },
        { label: user.displayName, href: `${who.base}/users/${user.id}` },
        { label: text.submit.replace(/^(\w+) the /, '$1 ') },
      ],
      body: confirmation({ base: who.base, csrf: who.csrfToken, user, action: `${who.base}/users/${user.id}/${path}`, ...text }),
    };
  }
}

function done(who: ConsolePrincipal, user: UserView, text: string): ConsoleNext {
  return { redirect: `${who.base}/users/${user.id}`, flash: { kind: 'success', text } };
}

function invitationSent(invitation: InvitationView): string {
  return `Invitation to ${invitation.sections.join(', ')} sent; the link works until ${utc(new Date(invitation.expiresAt))}.`;
}
