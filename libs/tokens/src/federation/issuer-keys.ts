import { Logger } from '@nestjs/common';
import { OutboundError, type OutboundRules, outboundFetch } from '@gatehouse/outbound';
import { type VerificationKey, keysOfJwks } from './issuer-key-set.js';

/** Keys are kept per the key set's Cache-Control, between these bounds (DESIGN §11). */
export const MIN_KEYS_TTL_MS = 5 * 60_000;
export const MAX_KEYS_TTL_MS = 24 * 3600_000;
/** When the key set says nothing about caching. */
const DEFAULT_KEYS_TTL_MS = 3600_000;
/** A token naming a key the cached set lacks refetches at most this often per issuer. */
export const KID_REFETCH_MS = 60_000;
/** After a failed fetch, the issuer is not called again before this. */
const RETRY_MS = 60_000;
/** The last good keys serve this long after they were fetched, through any outage of the issuer. */
export const SERVE_LAST_GOOD_MS = 24 * 3600_000;
/** Discovery and key set together: answers of at most 256 KB, within 5 s, redirects within the origin. */
const FETCH_BUDGET_MS = 5_000;
const MAX_DOCUMENT_BYTES = 256 * 1024;

export interface IssuerKeysOptions {
  rules: OutboundRules;
  /** Issuers remembered at most (least recently used forgotten first). */
  maxIssuers?: number;
  now?: () => number;
}

/** No keys of this issuer can be used: none were ever fetched, or the last good ones are older than a day. */
export class IssuerUnavailableError extends Error {
  constructor(
    readonly issuer: string,
    readonly reason: string,
  ) {
    super(`the keys of ${issuer} could not be read: ${reason}`);
    this.name = 'IssuerUnavailableError';
  }
}

interface Entry {
  keys: readonly VerificationKey[] | null;
  fetchedAt: number;
  freshUntil: number;
  lastKidRefetch: number;
  retryAfter: number;
  inFlight: Promise<void> | null;
  lastError: string | null;
}

/**
 * The signing keys of external issuers (federated credentials), fetched through the outbound rules
 * (SECURITY check 61): `{issuer}/.well-known/openid-configuration`, then its `jwks_uri`. Per issuer:
 * one fetch at a time (concurrent askers share it); the keys kept as the key set's Cache-Control says,
 * within 5 minutes and 24 hours, and refreshed in the background once stale; a `kid` the set lacks
 * fetches again at most once a minute; after a failure no new call for a minute; the last good keys
 * serve for 24 hours through an outage. Only issuers the caller names are fetched — the token path
 * names an issuer only once a federated credential of the client names it — and at most
 * `maxIssuers` are remembered.
 */
export class IssuerKeys {
  private readonly logger = new Logger('FederatedIssuers');
  private readonly entries = new Map<string, Entry>();
  private readonly maxIssuers: number;
  private readonly now: () => number;
  /** Outbound requests made so far (discovery and key sets). */
  fetches = 0;

  constructor(private readonly options: IssuerKeysOptions) {
    this.maxIssuers = options.maxIssuers ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /** The issuer's keys, fetched when needed by the rules above; an {@link IssuerUnavailableError} when there are none to use. */
  async keysFor(issuer: string, kid: string | undefined): Promise<readonly VerificationKey[]> {
    const entry = this.entry(issuer);
    const now = this.now();
    if (entry.keys && now - entry.fetchedAt < SERVE_LAST_GOOD_MS) {
      if (now >= entry.freshUntil && now >= entry.retryAfter) void this.refresh(issuer, entry);
      if (kid === undefined || entry.keys.some((key) => key.kid === kid)) return entry.keys;
      if (now - entry.lastKidRefetch < KID_REFETCH_MS || now < entry.retryAfter) return entry.keys;
      entry.lastKidRefetch = now;
      await this.refresh(issuer, entry);
      return entry.keys;
    }
    if (now >= entry.retryAfter) await this.refresh(issuer, entry);
    if (entry.keys && this.now() - entry.fetchedAt < SERVE_LAST_GOOD_MS) return entry.keys;
    throw new IssuerUnavailableError(issuer, entry.lastError ?? 'no keys were ever read');
  }

  /** The issuer's entry, made the most recently used; the least recently used one goes beyond the bound. */
  private entry(issuer: string): Entry {
    let entry = this.entries.get(issuer);
    if (entry) {
      this.entries.delete(issuer);
    } else {
      entry = { keys: null, fetchedAt: 0, freshUntil: 0, lastKidRefetch: -Infinity, retryAfter: 0, inFlight: null, lastError: null };
      if (this.entries.size >= this.maxIssuers) this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(issuer, entry);
    return entry;
  }

  /** One fetch per issuer at a time; a failure keeps the last good keys and backs off. Never rejects. */
  private refresh(issuer: string, entry: Entry): Promise<void> {
    entry.inFlight ??= this.fetchKeys(issuer)
      .then(
        ({ keys, ttlMs }) => {
          const at = this.now();
          Object.assign(entry, { keys, fetchedAt: at, freshUntil: at + ttlMs, retryAfter: 0, lastError: null });
        },
        (error: unknown) => {
          entry.lastError = error instanceof OutboundError ? error.rule : (error as Error).message;
          entry.retryAfter = this.now() + RETRY_MS;
          const serving = entry.keys ? `; the keys of ${new Date(entry.fetchedAt).toISOString()} serve meanwhile` : '';
          this.logger.warn(`federated issuer ${issuer}: ${entry.lastError}${serving}`);
        },
      )
      .finally(() => {
        entry.inFlight = null;
      });
    return entry.inFlight;
  }

  private async fetchKeys(issuer: string): Promise<{ keys: VerificationKey[]; ttlMs: number }> {
    const deadline = this.now() + FETCH_BUDGET_MS;
    const discovery = await this.getJson(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, deadline);
    const document = discovery.json as { issuer?: unknown; jwks_uri?: unknown } | null;
    if (document?.issuer !== issuer) throw new Error('the discovery document names another issuer');
    if (typeof document.jwks_uri !== 'string') throw new Error('the discovery document has no jwks_uri');
    const jwks = await this.getJson(document.jwks_uri, deadline);
    return { keys: keysOfJwks(jwks.json), ttlMs: ttlOf(jwks.cacheControl) };
  }

  private async getJson(url: string, deadline: number): Promise<{ json: unknown; cacheControl: string | undefined }> {
    this.fetches++;
    const response = await outboundFetch(
      {
        url,
        headers: { accept: 'application/json' },
        timeoutMs: Math.max(1, deadline - this.now()),
        maxBytes: MAX_DOCUMENT_BYTES,
        sameOriginRedirects: 3,
      },
      this.options.rules,
    );
    if (response.status !== 200) throw new Error(`${new URL(url).pathname} answered ${response.status}`);
    try {
      return { json: JSON.parse(response.body.toString('utf8')), cacheControl: response.headers['cache-control'] };
    } catch {
      throw new Error(`${new URL(url).pathname} is not JSON`);
    }
  }
}

/** How long a key set may be kept: its `max-age` (`no-store`/`no-cache`: the least), within the bounds. */
export function ttlOf(cacheControl: string | undefined): number {
  if (!cacheControl) return DEFAULT_KEYS_TTL_MS;
  if (/\bno-(store|cache)\b/i.test(cacheControl)) return MIN_KEYS_TTL_MS;
  const maxAge = /\bmax-age\s*=\s*"?(\d{1,10})/i.exec(cacheControl);
  const ms = maxAge ? Number(maxAge[1]) * 1000 : DEFAULT_KEYS_TTL_MS;
  return Math.min(MAX_KEYS_TTL_MS, Math.max(MIN_KEYS_TTL_MS, ms));
}
