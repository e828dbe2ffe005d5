import { type CanActivate, type ExecutionContext, Injectable, SetMetadata, applyDecorators } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Permission, type Role, SecondFactorService, permissionsOf } from '@gatehouse/accounts';
import { type SessionPrincipal, SessionService } from '@gatehouse/sessions';
import { ConsolePageError, ConsoleRedirect, notPermitted } from './console.errors.js';
import { ConsoleOnce } from './console-once.js';
import type { ConsolePrincipal, ConsoleRequest } from './console-principal.js';
import { ConsoleStepUp } from './console-step-up.js';
import { ConsoleTimedOut } from './console-timed-out.js';
import { ConsoleSession } from './console-session.js';
import { ConsoleTenantResolver } from './console-tenant.js';
import { signInPath } from './sign-in-paths.js';

const PAGE = 'gatehouse:console-page';
const STEP_UP = 'gatehouse:console-step-up';
const PASSWORD_CHANGE = 'gatehouse:console-password-change';
const PREVIEW = 'gatehouse:console-preview';

/** A POST that changes nothing (a preview): its form may be sent again and again. */
export function Preview(): MethodDecorator {
  return SetMetadata(PREVIEW, true);
}

/**
 * Marks a console handler and names the permission it needs — the same `Permission` as its REST
 * twin (`null`: any signed-in staff member). Every console handler has exactly one.
 *
 * Adding a page group (say Clients) is four steps:
 *  1. a folder `console/clients/` with `clients.controller.ts` (routes only, each handler one line:
 *     `return this.out.send(res, who, this.clients.list(who, req.query))`), `clients.presenter.ts`
 *     (calls the SAME domain service as the REST controller with `who` as the actor, catches its
 *     domain errors into field errors, returns a {@link ConsoleView} or a `{ redirect, flash }`) and
 *     `clients.pages.ts` (templates: pure functions of view data, built from `@gatehouse/views`);
 *  2. `@ConsoleController('clients')` on the class and `@ConsolePage('Clients.Read')` on each
 *     handler (`@StepUp()` too on a POST through which a credential or a way in can leave, or that
 *     removes a second factor: see {@link StepUp});
 *  3. an entry in `CONSOLE_SECTIONS` (console-navigation.ts) with the same permission;
 *  4. the controller in `CONSOLE_PAGES` (console.module.ts), and a Chromium test with axe-core and
 *     screenshots at 1280 and 390 px (`test/support/console.ts`, `test/support/page-checks.ts`).
 * The guard then signs people in, checks the CSRF token and origin of every POST, reads the roles
 * afresh, answers 403 to a forced URL (nothing runs), and asks for the second factor again.
 */
export function ConsolePage(permission: Permission | null): MethodDecorator {
  return SetMetadata(PAGE, { permission });
}

/**
 * The action needs a second factor younger than five minutes; asked inline, then continued: the
 * step-up page posts the same form again, its fields carried as hidden inputs — so such a form
 * must hold no password or secret (none of these actions needs one).
 *
 * SECURITY 57: every action through which a credential or a way in can leave carries it — a new
 * secret, a handover to any address, a certificate, a federated credential, a staff invitation or
 * a role change, a passkey, a webhook (its signing secret), removing a second factor. A new such
 * action needs only this decorator on its POST, and an entry with `stepUp: true` in the role
 * matrix test (test/role-matrix-console.e2e-spec.ts), which fails until it has one;
 * `test/support/step-up.ts` proves the prompt, the unchanged state and the continued action.
 */
export function StepUp(options: { afterValidation?: boolean } = {}): MethodDecorator {
  return SetMetadata(STEP_UP, options.afterValidation ? 'after-validation' : true);
}

/** What a console handler declares: its permission and whether it asks for a fresh second factor (for the role matrix). */
export function declaredConsolePage(handler: object): { permission: Permission | null; stepUp: boolean } | undefined {
  const page = Reflect.getMetadata(PAGE, handler) as { permission: Permission | null } | undefined;
  const stepUp = Reflect.getMetadata(STEP_UP, handler) as boolean | 'after-validation' | undefined;
  return page && { permission: page.permission, stepUp: stepUp === true || stepUp === 'after-validation' };
}

/** The page a person with an issued password must reach to change it (nothing else opens until then). */
export function PasswordChangePage(): MethodDecorator {
  return applyDecorators(SetMetadata(PASSWORD_CHANGE, true));
}

/** Admits a request to a console page: signed in with both factors, holding the page's permission. */
@Injectable()
export class ConsoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly tenants: ConsoleTenantResolver,
    private readonly session: ConsoleSession,
    private readonly sessions: SessionService,
    private readonly factors: SecondFactorService,
    private readonly stepUp: ConsoleStepUp,
    private readonly once: ConsoleOnce,
    private readonly timedOut: ConsoleTimedOut,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const handler = context.getHandler();
    const page = this.reflector.get<{ permission: Permission | null } | undefined>(PAGE, handler);
    if (!page) throw new Error(`console handler ${handler.name} declares no @ConsolePage()`);
    const req = context.switchToHttp().getRequest<ConsoleRequest>();
    const { tenant, base } = await this.tenants.resolve(req);
    const session = await this.session.read(req, tenant.id);
    if (!session) throw await this.timedOut.toSignIn(req, tenant.id, base);
    if (!session.secondFactorAt) throw new ConsoleRedirect(await signInPath(this.factors, base, session));
    const permissions = permissionsOf(session.roles as Role[]);
    if (!permissions.length) throw noRole();
    if (req.method !== 'GET' && req.method !== 'HEAD') this.session.checkForm(req, session.csrfToken);
    if (session.mustChangePassword && !this.reflector.get<boolean>(PASSWORD_CHANGE, handler)) {
      throw new ConsoleRedirect(`${base}/account/password`);
    }
    const principal = await this.principal(req, session, { tenant, base, permissions });
    req.console = principal; // from here on, refusals are shown in the console's frame
    if (page.permission && !permissions.includes(page.permission)) throw notPermitted();
    const stepUp = this.reflector.get<boolean | 'after-validation' | undefined>(STEP_UP, handler);
    if (stepUp === true) await this.stepUp.confirm(req, principal);
    if (req.method === 'POST' && !this.reflector.get<boolean>(PREVIEW, handler)) await this.once.claim(req, principal);
    if (stepUp === 'after-validation') req.stepUpDue = true;
    return true;
  }

  private async principal(
    req: ConsoleRequest,
    session: SessionPrincipal,
    scope: Pick<ConsolePrincipal, 'tenant' | 'base' | 'permissions'>,
  ): Promise<ConsolePrincipal> {
    const flash = req.method === 'GET' ? await this.sessions.takeFlash(session) : [];
    return {
      type: 'user',
      userId: session.userId,
      clientId: null,
      permissions: scope.permissions,
      requestId: typeof req.id === 'string' ? req.id : undefined,
      sourceAddress: req.ip,
      tenantId: session.tenantId,
      tenant: scope.tenant,
      base: scope.base,
      username: session.username,
      displayName: session.displayName,
      roles: session.roles as Role[],
      sessionId: session.sessionId,
      csrfToken: session.csrfToken,
      secondFactorAt: session.secondFactorAt!,
      mustChangePassword: session.mustChangePassword,
      flash,
    };
  }
}

function noRole(): ConsolePageError {
  return new ConsolePageError(
    403,
    'No console access',
    'Your account holds no role in this console. An Administrator can give you one.',
  );
}
