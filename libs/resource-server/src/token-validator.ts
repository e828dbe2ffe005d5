import { type JWTPayload, type JWTVerifyGetKey, createRemoteJWKSet, errors, jwtVerify } from 'jose';

export interface ResourceServerOptions {
  /** The tenant's authority, as clients use it: `{PUBLIC_URL}/{tenantId}` (or the slug). */
  authority: string;
  /** The `aud` values this API accepts: its identifier URI (v1 tokens) and/or its app id (v2 tokens). */
  audience: string | string[];
  /** Allowed clock difference for `exp` and `nbf`. Default 60 s. */
  clockToleranceSeconds?: number;
}

/** Why a request is refused, as RFC 6750 §3 names it (no `error` when no token was sent at all). */
export class BearerError extends Error {
  constructor(
    readonly status: 401 | 403,
    readonly error: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | undefined,
    message: string,
    readonly scope?: string,
  ) {
    super(message);
    this.name = 'BearerError';
  }
}

interface Metadata {
  issuers: string[];
  jwks: JWTVerifyGetKey;
}

/**
 * Validates Gatehouse access tokens for a resource server: signature against the tenant's JWKS
 * (found through discovery, cached, refetched when a token names a key it does not know — which is
 * how a key rotation arrives), `iss` (v2.0 `{…}/v2.0` or v1 `{…}/`), `aud`, `exp`, `nbf`, and the
 * token type (`JWT`, Entra's and the default, or RFC 9068's `at+jwt` where the API chose it).
 */
export class AccessTokenValidator {
  private metadata: Promise<Metadata> | undefined;

  constructor(private readonly options: ResourceServerOptions) {}

  async validate(token: string): Promise<JWTPayload> {
    const { issuers, jwks } = await this.discover();
    try {
      const { payload, protectedHeader } = await jwtVerify(token, jwks, {
        issuer: issuers,
        audience: this.options.audience,
        algorithms: ['RS256', 'ES256', 'PS256'],
        clockTolerance: this.options.clockToleranceSeconds ?? 60,
        requiredClaims: ['exp', 'iat'],
      });
      const v1 = payload.ver === '1.0';
      if (payload.iss !== issuers[v1 ? 1 : 0] || (protectedHeader.typ !== 'JWT' && protectedHeader.typ !== 'at+jwt')) {
        throw new BearerError(401, 'invalid_token', 'The token is not an access token of this authority.');
      }
      return payload;
    } catch (error) {
      throw toBearerError(error);
    }
  }

  /** The discovery document, once (retried after a failure). */
  private discover(): Promise<Metadata> {
    this.metadata ??= (async () => {
      const response = await fetch(
        `${this.options.authority.replace(/\/+$/, '')}/v2.0/.well-known/openid-configuration`,
      );
      if (!response.ok) throw new Error(`discovery answered ${response.status}`);
      const document = (await response.json()) as { issuer: string; jwks_uri: string };
      return {
        issuers: [document.issuer, document.issuer.replace(/v2\.0$/, '')],
        jwks: createRemoteJWKSet(new URL(document.jwks_uri), { cacheMaxAge: 24 * 3600_000, cooldownDuration: 30_000 }),
      };
    })();
    this.metadata.catch(() => (this.metadata = undefined));
    return this.metadata;
  }
}

function toBearerError(error: unknown): BearerError {
  if (error instanceof BearerError) return error;
  if (error instanceof errors.JWTExpired) return new BearerError(401, 'invalid_token', 'The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new BearerError(401, 'invalid_token', `The token's ${error.claim} claim is not accepted.`);
  }
  if (error instanceof errors.JOSEError) return new BearerError(401, 'invalid_token', 'The token is not valid.');
  throw error;
}

/** The roles (Entra app roles, Gatehouse scopes) a validated token carries. */
export function rolesOf(claims: JWTPayload): string[] {
  return Array.isArray(claims.roles) ? claims.roles.filter((role): role is string => typeof role === 'string') : [];
}

/** The access token of an `Authorization: Bearer …` header; a missing header is no error code (RFC 6750 §3.1). */
export function bearerToken(header: string | string[] | undefined): string {
  if (header === undefined) throw new BearerError(401, undefined, 'A bearer token is required.');
  const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim()) : null;
  if (!match) throw new BearerError(401, 'invalid_request', 'The Authorization header is not a bearer token.');
  return match[1]!;
}

/** Every one of `required` must be among the token's roles, else 403 insufficient_scope. */
export function requireRoles(claims: JWTPayload, required: readonly string[]): void {
  const held = new Set(rolesOf(claims));
  const missing = required.filter((role) => !held.has(role));
  if (missing.length > 0) {
    throw new BearerError(
      403,
      'insufficient_scope',
      `The token lacks the role ${missing.join(', ')}.`,
      required.join(' '),
    );
  }
}

/** The RFC 6750 `WWW-Authenticate` challenge for a refusal. */
export function challenge(realm: string, error: BearerError): string {
  const parts = [`realm="${realm}"`];
  if (error.error) parts.push(`error="${error.error}"`, `error_description="${error.message.replace(/["\\]/g, '')}"`);
  if (error.scope) parts.push(`scope="${error.scope}"`);
  return `Bearer ${parts.join(', ')}`;
}
