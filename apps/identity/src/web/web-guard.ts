import type { Request } from 'express';
import type { SessionPrincipal } from '@gatehouse/sessions';
import { returnToQuery } from './return-to.js';
import { WebRedirect } from './web-response.js';
import type { WebContext } from './web-session.js';

/** The original path of a request, as a `returnTo` value. */
export function pathOf(req: Request): string {
  return req.originalUrl.split('#')[0] ?? '/';
}

/**
 * The signed-in person, or a redirect to the login prompt (and back). A person who holds a role
 * goes to the second-factor step first (SECURITY 58: not even their password changes on the
 * password alone); someone who still holds an issued password goes to the password page next,
 * whatever they asked for.
 */
export function requireUser(
  context: WebContext,
  req: Request,
  options: { allowIssuedPassword?: boolean } = {},
): SessionPrincipal {
  const returnTo = pathOf(req);
  if (!context.principal) throw new WebRedirect(`/login?${returnToQuery(returnTo)}`);
  if (context.principal.roles.length > 0 && !context.principal.secondFactorAt) {
    throw new WebRedirect(`/login/code?${returnToQuery(returnTo)}`);
  }
  if (context.principal.mustChangePassword && !options.allowIssuedPassword) {
    throw new WebRedirect(`/password?${returnToQuery(returnTo)}`);
  }
  return context.principal;
}
