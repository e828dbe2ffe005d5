import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { LoginService, PasskeyService, SecondFactorService, type SecondFactorOutcome, permissionsOf } from '@gatehouse/accounts';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { safeReturnTo } from '@gatehouse/http';
import type { SessionPrincipal } from '@gatehouse/sessions';
import { signInRefusal, wrongCodeRefusal } from '@gatehouse/views';
import { ConsoleRedirect } from '../frame/console.errors.js';
import { field } from '../frame/console-forms.js';
import { ConsoleResponder, type ConsoleView, redirect } from '../frame/console-responder.js';
import { ConsoleSession } from '../frame/console-session.js';
import { type ConsoleTenant, ConsoleTenantResolver } from '../frame/console-tenant.js';
import { signInPath } from '../frame/sign-in-paths.js';
import { SIGN_IN_FAILED, codeStep, passwordStep } from './sign-in.pages.js';

/** Where to land after signing in: a page of this tenant's console, or its Overview. */
export function landing(value: unknown, base: string): string {
  const path = safeReturnTo(value, base);
  return path === base || path.startsWith(`${base}/`) || path.startsWith(`${base}?`) ? path : base;
}

/**
 * Staff sign-in: username and password (counted against the same lockout and source throttle as
 * the Web UI), then the second factor. Each step starts a new session id; until the second factor,
 * the session opens nothing but these pages. A person without a role cannot sign in here.
 */
@Injectable()
export class SignInFlow {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tenants: ConsoleTenantResolver,
    private readonly session: ConsoleSession,
    private readonly logins: LoginService,
    private readonly factors: SecondFactorService,
    private readonly passkeys: PasskeyService,
    private readonly out: ConsoleResponder,
  ) {}

  async showPassword(req: Request, res: Response): Promise<void> {
    const scope = await this.tenants.resolve(req);
    const current = await this.session.read(req, scope.tenant.id);
    const returnTo = landing(req.query.returnTo, scope.base);
    if (current?.secondFactorAt) return redirect(res, returnTo);
    this.out.signIn(res, scope.base, this.passwordView(req, res, scope, { returnTo }));
  }

  async password(req: Request, res: Response): Promise<void> {
    this.session.checkSignInForm(req);
    const scope = await this.tenants.resolve(req);
    const returnTo = landing(field(req, 'returnTo'), scope.base);
    const username = field(req, 'username').trim();
    const lookup = /[\u0000-\u001f]/.test(username) ? '' : username.slice(0, 200);
    const outcome = await this.logins.authenticate(scope.tenant.id, lookup, field(req, 'password'), req.ip, {
      secondFactorFollows: true,
    });
    if (!outcome.ok) {
      const error = outcome.throttled
        ? `Too many failed sign-ins from your network. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minutes.`
        : signInRefusal(outcome.lockedUntil, SIGN_IN_FAILED);
      if (outcome.throttled) res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
      const view = this.passwordView(req, res, scope, { returnTo, username, error });
      return this.out.signIn(res, scope.base, { ...view, status: outcome.throttled ? 429 : 401 });
    }
    if (!permissionsOf(outcome.user.roles).length) {
      const view = this.passwordView(req, res, scope, { returnTo, username, error: 'This account holds no role in the console. An Administrator can give you one.' });
      return this.out.signIn(res, scope.base, { ...view, status: 403 });
    }
    await this.session.begin(req, res, { tenantId: scope.tenant.id, userId: outcome.user.id }, { secondFactorAt: null });
    const next = await signInPath(this.factors, scope.base, { tenantId: scope.tenant.id, userId: outcome.user.id });
    redirect(res, `${next}?returnTo=${encodeURIComponent(returnTo)}`);
  }

  async showCode(req: Request, res: Response): Promise<void> {
    const { scope, pending } = await this.pending(req);
    const view = await this.codeView(scope, pending, landing(req.query.returnTo, scope.base));
    this.out.signIn(res, scope.base, view);
  }

  async code(req: Request, res: Response): Promise<void> {
    const { scope, pending } = await this.pending(req);
    this.session.checkForm(req, pending.csrfToken);
    const outcome = await this.factors.verify(scope.tenant.id, pending.userId, field(req, 'code'), req.ip);
    await this.finish(req, res, { scope, pending }, outcome, 'That code did not work. Enter the code your app shows now; each code works once.');
  }

  /** After a second factor was checked: a new session that passed both, or the code step again with why not. */
  async finish(
    req: Request,
    res: Response,
    { scope, pending }: { scope: ConsoleTenant; pending: SessionPrincipal },
    outcome: SecondFactorOutcome,
    wrong: string,
  ): Promise<void> {
    const returnTo = landing(field(req, 'returnTo'), scope.base);
    if (!outcome.ok) {
      const error = outcome.throttled
        ? 'Too many failed sign-ins from your network. Try again later.'
        : outcome.lockedUntil
          ? wrongCodeRefusal(outcome.lockedUntil)
          : wrong;
      const view = await this.codeView(scope, pending, returnTo, error);
      return this.out.signIn(res, scope.base, { ...view, status: outcome.throttled ? 429 : 401 });
    }
    const flash =
      outcome.method === 'recovery_code'
        ? [{ kind: 'warning' as const, text: `You signed in with a recovery code; ${outcome.recoveryCodesLeft} left. Make new ones in My account if you are running low.` }]
        : [];
    await this.session.begin(req, res, pending, { secondFactorAt: new Date(), flash });
    redirect(res, returnTo);
  }

  async signOut(req: Request, res: Response): Promise<void> {
    const scope = await this.tenants.resolve(req);
    const current = await this.session.read(req, scope.tenant.id);
    this.session.checkSignOut(req, current);
    if (current) await this.session.end(res, current);
    redirect(res, `${scope.base}/login`);
  }

  /** The password-only session of this browser, or back to the first step. */
  async pending(req: Request): Promise<{ scope: ConsoleTenant; pending: SessionPrincipal }> {
    const scope = await this.tenants.resolve(req);
    const pending = await this.session.read(req, scope.tenant.id);
    if (!pending) throw new ConsoleRedirect(`${scope.base}/login`);
    if (pending.secondFactorAt) throw new ConsoleRedirect(scope.base);
    return { scope, pending };
  }

  /** The Web UI's reset page, which serves the UI tenant only (the console at `/console`). */
  private resetUrl(scope: ConsoleTenant): string | undefined {
    return scope.base === '/console' ? `${this.config.publicUrl.replace(/\/+$/, '')}/password-reset` : undefined;
  }

  private passwordView(
    req: Request,
    res: Response,
    scope: ConsoleTenant,
    input: { returnTo: string; username?: string; error?: string },
  ): ConsoleView {
    const csrf = this.session.signInToken(req, res);
    return {
      title: 'Sign in to the console',
      lead: scope.tenant.displayName,
      body: passwordStep({ action: `${scope.base}/login`, csrf, resetUrl: this.resetUrl(scope), ...input }),
    };
  }

  private async codeView(scope: ConsoleTenant, pending: SessionPrincipal, returnTo: string, error?: string): Promise<ConsoleView> {
    const hasPasskey = (await this.passkeys.list(scope.tenant.id, pending.userId)).length > 0;
    return {
      title: 'Enter your code',
      lead: scope.tenant.displayName,
      body: codeStep({
        action: `${scope.base}/login/code`,
        cancel: `${scope.base}/logout`,
        passkey: hasPasskey ? { options: `${scope.base}/login/passkey/options`, action: `${scope.base}/login/passkey` } : undefined,
        csrf: pending.csrfToken,
        returnTo,
        username: pending.username,
        error,
      }),
    };
  }
}
