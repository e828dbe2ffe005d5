import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { SignedDoubleSubmit, cookieOf, isCrossSiteForm } from '@gatehouse/http';
import { type SessionFlash, type SessionPrincipal, SessionService, csrfMatches } from '@gatehouse/sessions';
import type { Tenant } from '@gatehouse/tenants';
import type { LoginService, PasswordVerdict } from '@gatehouse/accounts';
import { UiTenantResolver } from './ui-tenant.resolver.js';
import { forbiddenForm, notSetUp } from './web.errors.js';

export interface WebContext {
  tenant: Tenant;
  principal: SessionPrincipal | null;
  /** The session's waiting messages, taken when a page is about to be shown (a GET). */
  flash?: SessionFlash[];
}

/**
 * Cookies, sessions and CSRF for the Web UI. Session cookie: `HttpOnly`, `SameSite=Lax`,
 * `Path=/`, no `Domain`; in production `__Host-` and `Secure`. The anonymous login form uses a
 * signed double-submit token (cookie + HMAC of it in the form); every other form uses the
 * session's own token.
 */
@Injectable()
export class WebSession {
  readonly sessionCookie: string;
  private readonly secure: boolean;
  private readonly origin: string;
  private readonly loginCsrf: SignedDoubleSubmit;
  /** What {@link load} found for a request, so that an error page still shows who is signed in. */
  private readonly loaded = new WeakMap<Request, WebContext>();

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly sessions: SessionService,
    private readonly tenants: UiTenantResolver,
  ) {
    this.secure = config.nodeEnv === 'production';
    this.sessionCookie = this.secure ? '__Host-gh_session' : 'gh_session';
    this.origin = new URL(config.publicUrl).origin;
    this.loginCsrf = new SignedDoubleSubmit(
      config.secretPepper,
      'gatehouse web login csrf',
      this.secure ? '__Host-gh_csrf' : 'gh_csrf',
      { secure: this.secure, sameSite: 'lax' },
    );
  }

  async load(req: Request): Promise<WebContext> {
    const tenant = await this.tenants.resolve();
    if (!tenant) throw notSetUp();
    const principal = await this.sessions.resolve(tenant.id, cookieOf(req, this.sessionCookie));
    const flash = principal && req.method === 'GET' ? await this.sessions.takeFlash(principal) : [];
    const context = { tenant, principal, flash };
    this.loaded.set(req, context);
    return context;
  }

  /** Whether the request's session lives (resolving it renews its idle time); no flash is taken. */
  async alive(req: Request): Promise<boolean> {
    const tenant = await this.tenants.resolve();
    return !!tenant && (await this.sessions.resolve(tenant.id, cookieOf(req, this.sessionCookie))) !== null;
  }

  /** The context {@link load} gave this request, if it got that far. */
  loadedFor(req: Request): WebContext | null {
    return this.loaded.get(req) ?? null;
  }

  /** Checks a POST: same-origin, and the session's CSRF token in the form. */
  checkForm(req: Request, principal: SessionPrincipal): void {
    if (isCrossSiteForm(req, this.origin)) throw forbiddenForm();
    if (!csrfMatches(principal.csrfToken, field(req, '_csrf'))) throw forbiddenForm();
  }

  /** Checks the anonymous login form's signed double-submit token. */
  checkAnonymousForm(req: Request): void {
    if (isCrossSiteForm(req, this.origin) || !this.loginCsrf.matches(req, field(req, '_csrf'))) throw forbiddenForm();
  }

  /** The token for an anonymous form, setting its cookie when missing. */
  anonymousToken(req: Request, res: Response): string {
    return this.loginCsrf.token(req, res);
  }

  startCookie(res: Response, token: string): void {
    res.cookie(this.sessionCookie, token, this.cookieOptions());
  }

  clearCookie(res: Response): void {
    res.clearCookie(this.sessionCookie, this.cookieOptions());
  }

  currentToken(req: Request): string | undefined {
    return cookieOf(req, this.sessionCookie);
  }

  private cookieOptions() {
    return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure: this.secure };
  }
}

/** A form field as a single string ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** The new password a link's form carries (`newPassword`, `confirmPassword`), checked against the policy for `username`. */
export function chosenPassword(
  req: Request,
  logins: Pick<LoginService, 'checkNew'>,
  context: WebContext,
  username: string,
): { password: string; verdict: PasswordVerdict } {
  const password = field(req, 'newPassword');
  return { password, verdict: logins.checkNew(password, field(req, 'confirmPassword'), { tenantSlug: context.tenant.slug, username }) };
}
