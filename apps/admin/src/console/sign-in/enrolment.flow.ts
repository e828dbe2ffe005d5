import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  AccountError,
  AccountErrorCode,
  ConsoleActivationService,
  LoginService,
  MfaError,
  MfaErrorCode,
  PasswordRejection,
  type PasswordVerdict,
  SecondFactorService,
  hashPassword,
} from '@gatehouse/accounts';
import type { SessionPrincipal } from '@gatehouse/sessions';
import { type FieldErrors, html, qrCode, wrongCodeRefusal } from '@gatehouse/views';
import { ConsolePageError, ConsoleRedirect } from '../frame/console.errors.js';
import { field } from '../frame/console-forms.js';
import { ConsoleResponder, redirect } from '../frame/console-responder.js';
import { ConsoleSession } from '../frame/console-session.js';
import { type ConsoleTenant, ConsoleTenantResolver } from '../frame/console-tenant.js';
import { choosePasswordStep, enrolStep, recoveryCodesPage } from './sign-in.pages.js';
import { SignInFlow, landing } from './sign-in.flow.js';

/** A refused new password as the error beside the field to fix. */
export function passwordErrors(verdict: PasswordVerdict): FieldErrors {
  if (verdict.ok) return {};
  return verdict.reason === PasswordRejection.Mismatch ? { confirmPassword: verdict.message } : { newPassword: verdict.message };
}

/**
 * A staff member's first console sign-in: the one-time activation link (choose a password), then
 * the authenticator app (QR code and setup key; the first code confirms it), then ten recovery
 * codes shown once. Enrolment is also where a password-only session without a factor lands.
 */
@Injectable()
export class EnrolmentFlow {
  constructor(
    private readonly tenants: ConsoleTenantResolver,
    private readonly session: ConsoleSession,
    private readonly signIn: SignInFlow,
    private readonly logins: LoginService,
    private readonly factors: SecondFactorService,
    private readonly links: ConsoleActivationService,
    private readonly out: ConsoleResponder,
  ) {}

  async showEnrolment(req: Request, res: Response): Promise<void> {
    const { scope, pending } = await this.signIn.pending(req);
    this.out.signIn(res, scope.base, await this.enrolView(scope, pending));
  }

  async enrol(req: Request, res: Response): Promise<void> {
    const { scope, pending } = await this.signIn.pending(req);
    this.session.checkForm(req, pending.csrfToken);
    const outcome = await this.factors.confirmEnrolment(scope.tenant.id, pending.userId, field(req, 'code'), req.ip);
    if (!outcome.ok) {
      const error = outcome.lockedUntil
        ? wrongCodeRefusal(outcome.lockedUntil)
        : 'That code did not match. Check that the app shows a code for this account, then enter the current one.';
      return this.out.signIn(res, scope.base, { ...(await this.enrolView(scope, pending, error)), status: 400 });
    }
    await this.session.begin(req, res, pending, { secondFactorAt: new Date() });
    const next = landing(req.query.returnTo, scope.base);
    this.out.signIn(res, scope.base, {
      title: 'Your recovery codes',
      lead: 'Your authenticator app is set up.',
      body: recoveryCodesPage({ codes: outcome.recoveryCodes, next, nextLabel: 'I have saved them: continue to the console' }),
    });
  }

  async showActivation(req: Request, res: Response, token: string): Promise<void> {
    const { scope, username } = await this.usableLink(req, token);
    this.out.signIn(res, scope.base, this.activationView(req, res, scope, username, {}));
  }

  async activate(req: Request, res: Response, token: string): Promise<void> {
    this.session.checkSignInForm(req);
    const { scope, username } = await this.usableLink(req, token);
    const password = field(req, 'newPassword');
    const verdict = this.logins.checkNew(password, field(req, 'confirmPassword'), { tenantSlug: scope.tenant.slug, username });
    if (!verdict.ok) {
      return this.out.signIn(res, scope.base, { ...this.activationView(req, res, scope, username, passwordErrors(verdict)), status: 400 });
    }
    const { userId } = await this.links.complete(scope.tenant.id, token, await hashPassword(password)).catch(linkRefusal(scope.base));
    await this.session.begin(req, res, { tenantId: scope.tenant.id, userId }, { secondFactorAt: null });
    redirect(res, `${scope.base}/enroll`);
  }

  private async enrolView(scope: ConsoleTenant, pending: SessionPrincipal, error?: string) {
    const issuer = `Gatehouse (${scope.tenant.displayName})`;
    const enrolment = await this.factors.enrolment(scope.tenant.id, { id: pending.userId, username: pending.username }, issuer).catch((e: unknown) => {
      if (e instanceof MfaError && e.code === MfaErrorCode.AlreadyEnrolled) throw new ConsoleRedirect(`${scope.base}/login/code`);
      throw e;
    });
    const qr = await qrCode(enrolment.uri, `QR code to add ${issuer} to an authenticator app`);
    return {
      title: 'Set up your authenticator app',
      lead: scope.tenant.displayName,
      body: enrolStep({ action: `${scope.base}/enroll`, csrf: pending.csrfToken, secret: enrolment.secret, qr, username: pending.username, issuer, error }),
    };
  }

  private activationView(req: Request, res: Response, scope: ConsoleTenant, username: string, errors: FieldErrors) {
    const csrf = this.session.signInToken(req, res);
    return {
      title: 'Set up your console access',
      lead: scope.tenant.displayName,
      body: choosePasswordStep({ action: req.originalUrl.split('?')[0]!, csrf, username, errors }),
    };
  }

  private async usableLink(req: Request, token: string): Promise<{ scope: ConsoleTenant; username: string }> {
    const scope = await this.tenants.resolve(req);
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw linkGone(AccountErrorCode.LinkNotFound, scope.base);
    const state = await this.links.state(scope.tenant.id, token).catch(linkRefusal(scope.base));
    if (!state.usable) throw linkGone(state.refusal!, scope.base);
    return { scope, username: state.username };
  }
}

function linkRefusal(base: string): (error: unknown) => never {
  return (error) => {
    if (error instanceof AccountError) throw linkGone(error.code, base);
    throw error;
  };
}

/** A first-sign-in link that cannot be used: the way on is signing in (done already) or a new invitation. */
function linkGone(code: AccountErrorCode, base: string): ConsolePageError {
  if (code === AccountErrorCode.LinkNotFound) {
    return new ConsolePageError(404, 'Link not found', 'This link is not valid. Check that you copied it completely, or ask an Administrator for a new one.');
  }
  return new ConsolePageError(
    410,
    'This link no longer works',
    html`This link has been used, has expired, or a newer one replaced it. If you have set your password with it,
      <a href="${base}/login">sign in</a> with your username, password and authenticator code. Otherwise ask an
      Administrator to resend your invitation (on the Staff page of the console).`,
  );
}
