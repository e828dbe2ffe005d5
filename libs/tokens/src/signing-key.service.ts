import { KeyObject } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type JWTPayload, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { KeyEncryptor } from '@gatehouse/crypto';
import { ChangeListener, announceChange } from '@gatehouse/database';
import { MAX_TOKEN_LIFETIME_SECONDS, type SigningAlgorithm, TenantService } from '@gatehouse/tenants';
import { ChangeAwareCache, NOT_CACHED } from './change-aware-cache.js';
import { generateSigningKey, privateKeyFromDer, publicKeyFromJwk, publicMembers } from './key-material.js';
import { SigningKey } from './signing-key.entity.js';
import { type ClaimedKey, SigningKeyRepository } from './signing-key.repository.js';
import { AccessTokenError, AccessTokenErrorCode } from './token.errors.js';

export interface Signer {
  key: KeyObject;
  kid: string;
  alg: SigningAlgorithm;
}

export interface Jwks {
  keys: Array<Record<string, unknown>>;
}

interface PublishedKey {
  jwk: Record<string, unknown>;
  alg: SigningAlgorithm;
  key: KeyObject;
}

/** Default age after which the scheduler rolls a tenant's active key. */
export const DEFAULT_SIGNING_KEY_MAX_AGE_MS = 30 * 24 * 3600 * 1000;
/** How long before it signs anything a `next` key is published, so verifiers' JWKS caches know it. */
export const DEFAULT_SIGNING_KEY_PREPUBLISH_MS = 2 * 24 * 3600 * 1000;
/** Clock skew verifiers are allowed; a retired key stays published this much longer. */
const PUBLISH_SKEW_SECONDS = 300;
const ROTATION_BATCH = 100;

/** The issuer of a tenant's tokens, exactly as discovery announces it. */
export function issuerOf(publicUrl: string, tenantId: string): string {
  return `${publicUrl}/${tenantId}/v2.0`;
}

/** The issuer of a tenant's v1 tokens (Entra's `https://sts.windows.net/{tid}/`), as the v1 discovery says. */
export function v1IssuerOf(publicUrl: string, tenantId: string): string {
  return `${publicUrl}/${tenantId}/`;
}

/** Tenants' signing keys: generation, rollover, the signer of the hot path, the JWKS, verification. */
@Injectable()
export class SigningKeyService {
  private readonly logger = new Logger(SigningKeyService.name);
  private readonly signers: ChangeAwareCache<Signer>;
  private readonly published: ChangeAwareCache<PublishedKey[]>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly keys: SigningKeyRepository,
    private readonly tenants: TenantService,
    private readonly encryptor: KeyEncryptor,
    listener: ChangeListener,
  ) {
    const outageGraceMs = config.tokenOutageGraceSeconds * 1000;
    this.signers = new ChangeAwareCache(listener, { kinds: ['keys'], ttlMs: 5 * 60_000, outageGraceMs });
    this.published = new ChangeAwareCache(listener, { kinds: ['keys'], ttlMs: 60_000, outageGraceMs });
    tenants.onAlgorithmChange((em, tenant) =>
      this.rollover(em, tenant.id, tenant.signingAlgorithm).then(() => undefined),
    );
  }

  /** The tenant's active key, created (or replaced, when its algorithm differs) if need be. */
  async ensureActiveKey(em: EntityManager, tenantId: string, alg: SigningAlgorithm): Promise<SigningKey> {
    await this.keys.lockTenantKeys(em, tenantId);
    const active = await this.keys.findActiveWithPrivateKey(tenantId, em);
    if (active && active.algorithm === alg) return active;
    return this.rollover(em, tenantId, alg);
  }

  /**
   * A new key becomes active at once (the pre-published `next` key when it has this algorithm);
   * the previous active key is retired but stays published until every token it signed expired.
   * Token lifetimes are at most {@link MAX_TOKEN_LIFETIME_SECONDS} whatever the tenant's setting
   * was when they were issued, so that bound (plus clock skew) is how long it stays.
   */
  async rollover(em: EntityManager, tenantId: string, alg: SigningAlgorithm): Promise<SigningKey> {
    await this.keys.lockTenantKeys(em, tenantId);
    const now = new Date();
    await this.keys.retireActive(
      em,
      tenantId,
      new Date(now.getTime() + (MAX_TOKEN_LIFETIME_SECONDS + PUBLISH_SKEW_SECONDS) * 1000),
    );
    const next = await this.keys.findNext(em, tenantId);
    if (next && next.algorithm === alg) {
      await this.keys.activate(em, next.id, now);
    } else {
      await this.keys.deleteNext(em, tenantId);
      await this.createKey(em, tenantId, alg, 'active', now);
    }
    await announceChange(em, 'keys', tenantId, '*');
    const active = await this.keys.findActiveWithPrivateKey(tenantId, em);
    this.logger.log(`signing key ${active!.kid} (${alg}) active for tenant ${tenantId}`);
    return active!;
  }

  /** Publishes the key that the next rollover activates, unless one is already published. */
  async prepublishNext(em: EntityManager, tenantId: string, alg: SigningAlgorithm): Promise<void> {
    await this.keys.lockTenantKeys(em, tenantId);
    const next = await this.keys.findNext(em, tenantId);
    if (next?.algorithm === alg) return;
    await this.keys.deleteNext(em, tenantId);
    await this.createKey(em, tenantId, alg, 'next', null);
    await announceChange(em, 'keys', tenantId, '*');
  }

  /** The key that signs the tenant's tokens now; cached until a key or tenant change. */
  signer(tenantId: string): Promise<Signer> {
    return this.signers.get(tenantId, tenantId, () => this.loadSigner(tenantId));
  }

  /** The signer when it is cached (the hot path's synchronous read), else undefined. */
  cachedSigner(tenantId: string): Signer | undefined {
    const signer = this.signers.peek(tenantId);
    return signer === NOT_CACHED ? undefined : signer;
  }

  /** Public keys a verifier may meet: active, next and retired-but-published. */
  async jwks(tenantId: string): Promise<Jwks> {
    const published = await this.publishedKeys(tenantId);
    return { keys: published.map((entry) => entry.jwk) };
  }

  /** Verifies an access token of this tenant (RFC 9068) and returns its claims. */
  async verifyAccessToken(tenantId: string, jwt: string, options: { audience: string }): Promise<JWTPayload> {
    const published = await this.publishedKeys(tenantId);
    const resolve: JWTVerifyGetKey = (header) => {
      const match = published.find((entry) => entry.jwk.kid === header.kid);
      if (!match) throw new AccessTokenError(AccessTokenErrorCode.UnknownKey, 'token signed by an unknown key');
      if (header.alg !== match.alg)
        throw new AccessTokenError(AccessTokenErrorCode.InvalidSignature, 'algorithm mismatch');
      return match.key;
    };
    try {
      const { payload } = await jwtVerify(jwt, resolve, {
        algorithms: ['RS256', 'ES256'],
        typ: 'at+jwt',
        issuer: issuerOf(this.config.publicUrl, tenantId),
        audience: options.audience,
        requiredClaims: ['exp', 'iat', 'sub', 'client_id', 'jti'],
      });
      return payload;
    } catch (error) {
      throw toAccessTokenError(error);
    }
  }

  /**
   * The scheduled rotation: every active key older than `maxAgeMs` is rolled (its pre-published
   * `next` key takes over), every tenant whose key is due within `prepublishMs` gets a `next` key
   * in its JWKS, and retired keys past their publication are deleted. Each key is handled in its
   * own short transaction on a row claimed with `FOR UPDATE SKIP LOCKED`, so several workers share
   * the sweep and never do the same key twice. Returns the number of keys rolled.
   */
  async rotateDueKeys(
    maxAgeMs = DEFAULT_SIGNING_KEY_MAX_AGE_MS,
    prepublishMs = Math.min(DEFAULT_SIGNING_KEY_PREPUBLISH_MS, maxAgeMs / 2),
  ): Promise<number> {
    const started = Date.now();
    const rollCutoff = new Date(started - maxAgeMs);
    const prepublishCutoff = new Date(started - Math.max(0, maxAgeMs - prepublishMs));
    const rolled = await this.sweep(
      (em) => this.keys.claimActiveOlderThan(em, rollCutoff),
      (em, key) => this.rollover(em, key.tenantId, key.algorithm),
    );
    await this.sweep(
      (em) => this.keys.claimActiveWithoutNext(em, prepublishCutoff),
      (em, key) => this.prepublishNext(em, key.tenantId, key.algorithm),
    );
    await this.keys.deleteUnpublished();
    return rolled;
  }

  /** Claims and handles one key per transaction, at most {@link ROTATION_BATCH} per run. */
  private async sweep(
    claim: (em: EntityManager) => Promise<ClaimedKey | null>,
    handle: (em: EntityManager, key: ClaimedKey) => Promise<unknown>,
  ): Promise<number> {
    let handled = 0;
    while (handled < ROTATION_BATCH) {
      const done = await this.dataSource.transaction(async (em) => {
        const key = await claim(em);
        if (key) await handle(em, key);
        return key !== null;
      });
      if (!done) break;
      handled++;
    }
    return handled;
  }

  private async createKey(
    em: EntityManager,
    tenantId: string,
    alg: SigningAlgorithm,
    status: 'active' | 'next',
    activatedAt: Date | null,
  ): Promise<SigningKey> {
    const generated = await generateSigningKey(alg);
    return this.keys.insert(em, {
      tenantId,
      kid: generated.kid,
      algorithm: alg,
      status,
      publicJwk: generated.publicJwk,
      privateKeyEncrypted: this.encryptor.encrypt(generated.privateKeyDer, generated.kid),
      activatedAt,
    });
  }

  private async loadSigner(tenantId: string): Promise<Signer> {
    const [tenant, active] = await Promise.all([
      this.tenants.getById(tenantId),
      this.keys.findActiveWithPrivateKey(tenantId),
    ]);
    let key = active;
    // No key yet, or the algorithm was changed by an app that does not load this module: roll one in.
    if (!key || key.algorithm !== tenant.signingAlgorithm) {
      key = await this.dataSource.transaction((em) => this.ensureActiveKey(em, tenantId, tenant.signingAlgorithm));
    }
    const der = this.encryptor.decrypt(key.privateKeyEncrypted, key.kid);
    return { key: privateKeyFromDer(der), kid: key.kid, alg: key.algorithm };
  }

  private publishedKeys(tenantId: string): Promise<PublishedKey[]> {
    return this.published.get(tenantId, tenantId, async () => {
      const rows = await this.keys.findPublished(tenantId);
      return rows.map((row) => ({
        jwk: { ...publicMembers(row.publicJwk), kid: row.kid, use: 'sig', alg: row.algorithm },
        alg: row.algorithm,
        key: publicKeyFromJwk(row.publicJwk),
      }));
    });
  }
}

function toAccessTokenError(error: unknown): AccessTokenError {
  if (error instanceof AccessTokenError) return error;
  if (error instanceof joseErrors.JWTExpired)
    return new AccessTokenError(AccessTokenErrorCode.Expired, 'token expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new AccessTokenError(AccessTokenErrorCode.InvalidClaims, `claim check failed: ${error.claim}`);
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new AccessTokenError(AccessTokenErrorCode.InvalidSignature, 'signature verification failed');
  }
  return new AccessTokenError(AccessTokenErrorCode.Malformed, 'malformed token');
}
