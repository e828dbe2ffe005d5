import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SignedDoubleSubmit, cookieOf, isCrossSiteForm } from '@gatehouse/http';
import { type SessionFlash, type SessionPrincipal, SessionService, csrfMatches } from '@gatehouse/sessions';
import { forbiddenForm } from './console.errors.js';
import { field } from './console-forms.js';

/**
 * The console's own session cookie: `gh_console` (`__Host-gh_console` and `Secure` in production),
 * `HttpOnly`, `SameSite=Lax`, `Path=/`. It names a session of kind `console`, which the Web UI's
 * cookie can never open (nor this one a Web UI session). The sign-in form, shown before any
 * session exists, carries a signed double-submit token of its own.
 */
@Injectable()
export class ConsoleSession {
  readonly cookieName: string;
  private readonly secure: boolean;
  private readonly origin: string;
  private readonly signInCsrf: SignedDoubleSubmit;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionService,
  ) {
    this.secure = config.nodeEnv === 'production';
    this.cookieName = this.secure ? '__Host-gh_console' : 'gh_console';
    this.origin = new URL(config.adminPublicUrl).origin;
    this.signInCsrf = new SignedDoubleSubmit(
      config.secretPepper,
      'gatehouse console sign-in csrf',
      this.secure ? '__Host-gh_console_csrf' : 'gh_console_csrf',
      { secure: this.secure, sameSite: 'lax' },
    );
  }

  /** The console session behind the request's cookie, for this tenant, or `null`. */
  read(req: Request, tenantId: string): Promise<SessionPrincipal | null> {
    return this.sessions.resolve(tenantId, cookieOf(req, this.cookieName), 'console');
  }

  /**
   * A new session (a new id at each step of the sign-in): the previous one of this browser ends.
   * `secondFactorAt` null: the password only, which opens nothing but the sign-in pages.
   */
  async begin(
    req: Request,
    res: Response,
    who: { tenantId: string; userId: string },
    options: { secondFactorAt: Date | null; flash?: SessionFlash[] },
  ): Promise<void> {
    await this.sessions.end(cookieOf(req, this.cookieName));
    const started = await this.sessions.start(who.tenantId, who.userId, {
      kind: 'console',
      secondFactorAt: options.secondFactorAt,
      flash: options.flash,
      userAgent: req.get('user-agent'),
      source: req.ip,
    });
    this.setCookie(res, started.token);
  }

  /**
   * After a password change every session of the person ends (the Web UI's too); this browser
   * continues in a new console session that keeps its second-factor time and shows `flash`.
   */
  async renewAfterPasswordChange(
    req: Request,
    res: Response,
    who: { tenantId: string; userId: string; secondFactorAt: Date },
    flash: SessionFlash[],
  ): Promise<void> {
    const started = await this.sessions.renewAfterPasswordChange(who, {
      kind: 'console',
      secondFactorAt: who.secondFactorAt,
      flash,
      userAgent: req.get('user-agent'),
      source: req.ip,
    });
    this.setCookie(res, started.token);
  }

  setCookie(res: Response, token: string): void {
    res.cookie(this.cookieName, token, { httpOnly: true, sameSite: 'lax', path: '/', secure: this.secure });
  }

  /** Ends the request's session of this tenant (`current`) and clears its cookie; a session of another tenant stays. */
  async end(res: Response, current: SessionPrincipal): Promise<void> {
    await this.sessions.endSession(current);
    res.clearCookie(this.cookieName, { httpOnly: true, sameSite: 'lax', path: '/', secure: this.secure });
  }

  /** Whether a POST came from a page of this console's origin. */
  sameOrigin(req: Request): boolean {
    return !isCrossSiteForm(req, this.origin);
  }

  /** A POST of a signed-in page: same origin, and the session's CSRF token. */
  checkForm(req: Request, csrfToken: string): void {
    if (isCrossSiteForm(req, this.origin) || !csrfMatches(csrfToken, field(req, '_csrf'))) throw forbiddenForm();
  }

  /**
   * A sign-out POST, whatever tenant its URL names: same origin always; the CSRF token of this
   * tenant's session when there is one, else at least a token (a form of ours sent it; a
   * session of another tenant that the cookie may name is not this sign-out's to end).
   */
  checkSignOut(req: Request, current: SessionPrincipal | null): void {
    const presented = field(req, '_csrf');
    if (isCrossSiteForm(req, this.origin) || (current ? !csrfMatches(current.csrfToken, presented) : !presented)) {
      throw forbiddenForm();
    }
  }

  /** A POST of the sign-in form, before any session: same origin and the signed double submit. */
  checkSignInForm(req: Request): void {
    if (isCrossSiteForm(req, this.origin) || !this.signInCsrf.matches(req, field(req, '_csrf'))) throw forbiddenForm();
  }

  signInToken(req: Request, res: Response): string {
    return this.signInCsrf.token(req, res);
  }
}
