import type { NextFunction, Request, Response } from 'express';

/**
 * The console's Content-Security-Policy: its own stylesheet and script only, no inline script or
 * style, no framing, forms posting to itself.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Every console response: never cached, the strict CSP, no referrer. */
export function consoleHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
}
