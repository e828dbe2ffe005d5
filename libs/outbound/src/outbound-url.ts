import { OutboundError, OutboundErrorCode } from './outbound.errors.js';

/** Longest URL anybody may configure for Gatehouse to call. */
export const MAX_OUTBOUND_URL_LENGTH = 2_000;

/**
 * The rules a configured URL must pass before any lookup: https, no credentials, a sensible
 * length. Throws the first rule it breaks; returns the parsed URL.
 */
export function parseOutboundUrl(value: string): URL {
  if (value.length > MAX_OUTBOUND_URL_LENGTH) throw new OutboundError(OutboundErrorCode.UrlTooLong, value.slice(0, 80));
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OutboundError(OutboundErrorCode.InvalidUrl, value);
  }
  if (url.protocol !== 'https:') throw new OutboundError(OutboundErrorCode.NotHttps, value);
  if (url.username || url.password) throw new OutboundError(OutboundErrorCode.CredentialsInUrl, value);
  return url;
}

/**
 * Whether `url` is named by an allow-list entry for private addresses. An entry is a URL; it
 * allows its origin (scheme, host and port), so an issuer's discovery document and its key set,
 * which live on the issuer's host, are allowed together.
 */
export function allowsPrivate(allowList: readonly string[], url: URL): boolean {
  return allowList.some((entry) => {
    try {
      return new URL(entry).origin === url.origin;
    } catch {
      return false;
    }
  });
}
