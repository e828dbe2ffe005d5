import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LoginService, PasskeyService, PasswordRejection, SecondFactorService } from '@gatehouse/accounts';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { SessionService } from '@gatehouse/sessions';
import { type FieldErrors, signInRefusal } from '@gatehouse/views';
import { field } from '../frame/console-forms.js';
import type { ConsolePrincipal } from '../frame/console-principal.js';
import type { ConsoleResult, ConsoleView } from '../frame/console-responder.js';
import { ConsoleSession } from '../frame/console-session.js';
import { PasskeySupport } from '../frame/passkey-support.js';
import { recoveryCodesPage } from '../sign-in/sign-in.pages.js';
import { accountPage, passwordForm } from './account.pages.js';

const crumbs = (who: ConsolePrincipal, label: string) => [{ label: 'My account', href: `${who.base}/account` }, { label }];

/** My account: one's password (counted like a sign-in), second factor, recovery codes and sessions. */
@Injectable()
export class AccountPresenter {
  constructor(
    private readonly logins: LoginService,
    private readonly factors: SecondFactorService,
    private readonly sessions: SessionService,
    private readonly session: ConsoleSession,
    private readonly passkeys: PasskeyService,
    private readonly support: PasskeySupport,
  ) {}

  async show(who: ConsolePrincipal): Promise<ConsoleView> {
    const [[factor], sessions, passkeys] = await Promise.all([
      this.factors.summaries(who.tenantId, [who.userId]),
      this.sessions.list(who),
      this.passkeys.list(who.tenantId, who.userId),
    ]);
    const me = {
      displayName: who.displayName,
      username: who.username,
      roles: who.roles,
      authenticatorSince: factor?.totpConfirmedAt ?? null,
      recoveryCodesLeft: factor?.recoveryCodesLeft ?? 0,
    };
    return { title: 'My account', body: accountPage({ base: who.base, csrf: who.csrfToken, me, sessions, passkeys }) };
  }

  showPassword(who: ConsolePrincipal, errors: FieldErrors = {}): ConsoleView {
    return {
      title: 'Change your password',
      breadcrumbs: who.mustChangePassword ? undefined : crumbs(who, 'Password'),
      body: passwordForm({ base: who.base, csrf: who.csrfToken, forced: who.mustChangePassword, errors }),
      status: Object.keys(errors).length ? 400 : 200,
    };
  }

  async changePassword(who: ConsolePrincipal, req: Request, res: Response): Promise<ConsoleResult> {
    const outcome = await this.logins.changePassword(who.tenantId, who.userId, {
      current: field(req, 'currentPassword'),
      next: field(req, 'newPassword'),
      confirmation: field(req, 'confirmPassword'),
      tenantSlug: who.tenant.slug,
      source: req.ip,
    });
    if (!outcome.ok && outcome.wrongCurrent) {
      const refusal = signInRefusal(outcome.lockedUntil, '');
      return this.showPassword(who, { currentPassword: refusal ? `Too many wrong passwords. ${refusal}` : 'The current password is incorrect.' });
    }
    if (!outcome.ok) {
      const verdict = outcome.verdict;
      const message = verdict.ok ? '' : verdict.message;
      const mismatch = !verdict.ok && verdict.reason === PasswordRejection.Mismatch;
      return this.showPassword(who, mismatch ? { confirmPassword: message } : { newPassword: message });
    }
    const text = 'Your password has been changed. Your other sessions have ended, and we sent you an email about the change.';
    await this.session.renewAfterPasswordChange(req, res, who, [{ kind: 'success', text }]);
    return { redirect: `${who.base}/account` };
  }

  async regenerateRecoveryCodes(who: ConsolePrincipal): Promise<ConsoleView> {
    const codes = await this.factors.regenerateRecoveryCodes(who.tenantId, who, who.userId);
    return {
      title: 'Your new recovery codes',
      shownOnce: true,
      breadcrumbs: crumbs(who, 'Recovery codes'),
      flash: [{ kind: 'success', text: 'New recovery codes made. The old ones no longer work.' }],
      body: recoveryCodesPage({ codes, next: `${who.base}/account`, nextLabel: 'I have saved them: back to My account' }),
    };
  }

  async passkeyOptions(who: ConsolePrincipal, res: Response): Promise<void> {
    const options = await this.passkeys.registrationOptions(who.tenantId, { id: who.userId, username: who.username, displayName: who.displayName }, this.support.rp);
    await this.support.sendOptions(res, who.sessionId, options);
  }

  async addPasskey(who: ConsolePrincipal, req: Request): Promise<ConsoleResult> {
    const { challenge, response } = await this.support.takeResponse<RegistrationResponseJSON>(req, who.sessionId);
    const name = field(req, 'name').trim().slice(0, 60) || 'Passkey';
    const added = challenge && response && (await this.passkeys.register(who.tenantId, who.userId, response, { challenge, rp: this.support.rp, name }));
    const flash = added
      ? { kind: 'success' as const, text: `Passkey "${name}" added. At sign-in you can now use it instead of a code.` }
      : { kind: 'error' as const, text: 'The passkey could not be added: the browser’s answer did not check out. Try again.' };
    return { redirect: `${who.base}/account`, flash };
  }

  async removePasskey(who: ConsolePrincipal, id: string): Promise<ConsoleResult> {
    const removed = await this.passkeys.remove(who.tenantId, who, who.userId, id);
    const flash = removed
      ? { kind: 'success' as const, text: `Passkey "${removed.name}" removed. It no longer signs you in.` }
      : { kind: 'error' as const, text: 'There is no such passkey.' };
    return { redirect: `${who.base}/account`, flash };
  }

  async endOthers(who: ConsolePrincipal): Promise<ConsoleResult> {
    const ended = await this.sessions.endOthers(who);
    const text = ended ? `Signed out ${ended} other session${ended === 1 ? '' : 's'}.` : 'There were no other sessions.';
    return { redirect: `${who.base}/account`, flash: { kind: 'success', text } };
  }
}
