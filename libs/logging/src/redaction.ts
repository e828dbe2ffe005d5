/**
 * Paths pino censors in every log line. Request bodies are never logged, but these also cover
 * anything a developer passes by mistake.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.authorization',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.initialPassword',
  '*.client_secret',
  '*.clientSecret',
  '*.secret',
  '*.secretText',
  '*.secretHash',
  '*.passwordHash',
  '*.token',
  '*.access_token',
  '*.accessToken',
  '*.tokenHash',
  'password',
  'client_secret',
  'clientSecret',
  'secret',
  'secretText',
  'token',
  'access_token',
];

/** Path segments that carry link tokens are masked before a URL reaches a log. */
const TOKEN_IN_PATH = /\/(invitations|activate|reset-password|handover|confirm)\/[^/?#]+/g;
const SECRET_IN_QUERY = /([?&](?:client_secret|client_assertion|token|password|code)=)[^&#]*/gi;

export function maskUrl(url: string): string {
  return url.replace(TOKEN_IN_PATH, '/$1/[redacted]').replace(SECRET_IN_QUERY, '$1[redacted]');
}
