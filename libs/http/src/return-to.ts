const BASE = 'http://gatehouse.invalid';

/**
 * A `returnTo` value made safe: a same-origin path (with query), or `fallback`. Refuses absolute
 * URLs, scheme-relative `//host`, backslashes (`/\host`), userinfo tricks and control characters.
 */
export function safeReturnTo(value: unknown, fallback = '/docs'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return fallback;
  if (!value.startsWith('/') || value.startsWith('//')) return fallback;
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return fallback;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return fallback; // not a URL at all
  }
  if (url.origin !== BASE || url.username || url.password) return fallback;
  const path = url.pathname + url.search;
  return path.startsWith('//') ? fallback : path;
}

/**
 * A path as a `returnTo` query value. Slashes stay literal (legal in a query) so that the access
 * log's masking of `/invitations/{token}` and `/activate/{token}` still finds link tokens.
 */
export function returnToQuery(path: string): string {
  return `returnTo=${encodeURIComponent(path).replace(/%2F/gi, '/')}`;
}
