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

/**
 * Path segments after which a link token follows. Routing ignores case (`/HANDOVER/…` is the
 * handover page), so the comparison does too, on the decoded segment.
 */
const LINK_SEGMENTS = new Set(['invitations', 'activate', 'reset-password', 'password-reset', 'handover', 'confirm']);
const SECRET_IN_QUERY = /([?&](?:client_secret|client_assertion|token|password|code)=)[^&#]*/gi;
/** A link path carried in the query (`/login?returnTo=/invitations/…`), plain or percent-encoded. */
const LINK_IN_QUERY = new RegExp(`((?:/|%2f)(?:${[...LINK_SEGMENTS].join('|')})(?:/|%2f))[^&#/]+`, 'gi');

function segmentName(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}

/** The URL as a log may show it: everything after a link segment, and secrets in the query, masked. */
export function maskUrl(url: string): string {
  const end = url.search(/[?#]/);
  const segments = (end < 0 ? url : url.slice(0, end)).split('/');
  const link = segments.findIndex((segment) => LINK_SEGMENTS.has(segmentName(segment)));
  const path = link >= 0 && link < segments.length - 1 ? [...segments.slice(0, link + 1), '[redacted]'].join('/') : segments.join('/');
  return path + (end < 0 ? '' : url.slice(end).replace(SECRET_IN_QUERY, '$1[redacted]').replace(LINK_IN_QUERY, '$1[redacted]'));
}
