import { type KeyObject, createHmac, createSecretKey, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';

/**
 * Whether a form POST comes from another site, whatever token it carries. Pages send
 * `Referrer-Policy: no-referrer`, under which browsers send `Origin: null` on same-origin posts:
 * then `Sec-Fetch-Site` decides.
 */
export function isCrossSiteForm(req: Request, expectedOrigin: string): boolean {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  if (origin === 'null' && site !== 'same-origin') return true;
  return origin !== undefined && origin !== 'null' && origin !== expectedOrigin;
}

/** A cookie set by `cookie-parser`, as a string. */
export function cookieOf(req: Request, name: string): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

export interface CookieSettings {
  secure: boolean;
  sameSite: 'lax' | 'strict';
}

/**
 * CSRF protection of forms shown before anyone is signed in (a login form): a random cookie and,
 * in the form, an HMAC of it under a key of its own (signed double submit). Each UI has its own
 * cookie and key, so a token of one is worthless in the other.
 */
export class SignedDoubleSubmit {
  /** A KeyObject, imported once (see SecretHasher: a Buffer key is imported again on every HMAC). */
  private readonly key: KeyObject;

  constructor(
    pepper: Buffer,
    purpose: string,
    private readonly cookieName: string,
    private readonly settings: CookieSettings,
  ) {
    this.key = createSecretKey(createHmac('sha256', pepper).update(purpose).digest());
  }

  /** The token for a form, setting its cookie when missing. */
  token(req: Request, res: Response): string {
    let value = cookieOf(req, this.cookieName);
    if (!value || !/^[A-Za-z0-9_-]{43}$/.test(value)) {
      value = randomBytes(32).toString('base64url');
      res.cookie(this.cookieName, value, { httpOnly: true, path: '/', ...this.settings });
    }
    return this.sign(value);
  }

  /** Whether the form's `_csrf` matches the cookie. */
  matches(req: Request, presented: string): boolean {
    const value = cookieOf(req, this.cookieName);
    if (!value) return false;
    const expected = Buffer.from(this.sign(value));
    const given = Buffer.from(presented);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }

  private sign(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}
