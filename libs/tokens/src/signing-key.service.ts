import { KeyObject } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { KeyEncryptor } from '@gatehouse/crypto';
import { ChangeListener, announceChange } from '@gatehouse/database';
import { MAX_TOKEN_LIFETIME_SECONDS, type SigningAlgorithm, TenantService } from '@gatehouse/tenants';
import { ChangeAwareCache, NOT_CACHED } from './change-aware-cache.js';
import { generateSigningKey, privateKeyFromDer, publicKeyFromJwk } from './key-material.js';
import { SigningKey } from './signing-key.entity.js';
import { type ClaimedKey, SigningKeyRepository } from './signing-key.repository.js';
import { AccessTokenError, AccessTokenErrorCode } from './token.errors.js';
import { keyCertificate, publishedJwk, toAccessTokenError } from './signing-key.material.js';
import type { VerificationKey } from './federation/issuer-key-set.js';
import { issuerOf } from './issuers.js';

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
/** How long verifiers and shared caches may keep the JWKS (`Cache-Control: public, max-age=…`). */
export const JWKS_MAX_AGE_SECONDS = 86_400;
/** A scheduled key signs only once it has been published this long: every cached JWKS knows it by then. */
export const PUBLISH_LEAD_MS = (JWKS_MAX_AGE_SECONDS + PUBLISH_SKEW_SECONDS) * 1000;
/** Validity of the self-signed certificate published with each key (`x5c`); keys retire long before. */
const ROTATION_BATCH = 100;

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
    // A new algorithm is published at once and signs a day later (the JWKS may be cached a day).
    tenants.onAlgorithmChange((em, tenant) => this.prepublishNext(em, tenant.id, tenant.signingAlgorithm));
  }

  /**
   * The tenant's active key, created if there is none (nobody can have cached a JWKS without it);
   * one of another algorithm keeps signing while a key of `alg` is published (see {@link rotateDueKeys}).
   */
  async ensureActiveKey(em: EntityManager, tenantId: string, alg: SigningAlgorithm): Promise<SigningKey> {
    await this.keys.lockTenantKeys(em, tenantId);
    const active = await this.keys.findActiveWithPrivateKey(tenantId, em);
    if (!active) return this.rollover(em, tenantId, alg);
    if (active.algorithm !== alg) await this.prepublishNext(em, tenantId, alg);
    return active;
  }

  /**
   * A new key becomes active at once (the pre-published `next` key when it has this algorithm);
   * the previous active key is retired but stays published until every token it signed expired.
   * The scheduled path ({@link rotateDueKeys}) calls it only once the next key has been published
   * for {@link PUBLISH_LEAD_MS}; called directly it is the emergency rollover (a compromised key),
   * whose new key verifiers with a cached JWKS learn by refetching it on an unknown `kid`.
   * Token lifetimes are at most {@link MAX_TOKEN_LIFETIME_SECONDS} whatever the tenant's setting
   * was when they were issued, so that bound (plus clock skew) is how long it stays.
   */
  async rollover(em: EntityManager, tenantId: string, alg: SigningAlgorithm): Promise<SigningKey> {
    await this.keys.lockActive(em, tenantId); // before the key lock, as the scheduled rotation claims it
    await this.keys.lockTenantKeys(em, tenantId);
    const now = new Date();
    const lastUse = now.getTime() + (MAX_TOKEN_LIFETIME_SECONDS + PUBLISH_SKEW_SECONDS) * 1000;
    await this.keys.retireActive(em, tenantId, new Date(lastUse));
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

  /** Holds a key for a tenant that exists in memory only (the start-up warm-up's) until the returned release. */
  holdSynthetic(tenantId: string, signer: Signer): () => void {
    this.signers.remember(tenantId, tenantId, signer, this.signers.version);
    return () => this.signers.forget(tenantId);
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

  /** The public keys of the JWKS as a verifier of this tenant's tokens uses them (tenant-to-tenant federation). */
  async verificationKeys(tenantId: string): Promise<VerificationKey[]> {
    const published = await this.publishedKeys(tenantId);
    return published.map((entry) => ({ kid: String(entry.jwk.kid), alg: entry.alg, key: entry.key }));
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
      const { payload, protectedHeader } = await jwtVerify(jwt, resolve, {
        algorithms: ['RS256', 'ES256'],
        issuer: issuerOf(this.config.publicUrl, tenantId),
        audience: options.audience,
        requiredClaims: ['exp', 'iat', 'sub', 'client_id', 'jti'],
      });
      // Entra's typ (the default) or RFC 9068's, whichever the API asked for: an access token either way.
      if (protectedHeader.typ !== 'JWT' && protectedHeader.typ !== 'at+jwt') {
        throw new AccessTokenError(AccessTokenErrorCode.InvalidClaims, 'claim check failed: typ');
      }
      return payload;
    } catch (error) {
      throw toAccessTokenError(error);
    }
  }

  /**
   * The scheduled rotation, planned around the JWKS being cached a day: every tenant whose key is
   * due within `prepublishMs` (or whose algorithm was changed) gets a `next` key in its JWKS; an
   * active key older than `maxAgeMs` (or of another algorithm) is rolled once its `next` key has
   * been published for `leadMs` (a day and the clock skew); retired keys past their publication
   * are deleted. Each key is handled in its own short transaction on a row claimed with
   * `FOR UPDATE SKIP LOCKED`, so several workers share the sweep and never do the same key twice.
   * Returns the number of keys rolled.
   */
  async rotateDueKeys(
    maxAgeMs = DEFAULT_SIGNING_KEY_MAX_AGE_MS,
    prepublishMs = Math.min(DEFAULT_SIGNING_KEY_PREPUBLISH_MS, maxAgeMs / 2),
    leadMs = PUBLISH_LEAD_MS,
  ): Promise<number> {
    const started = Date.now();
    const rollCutoff = new Date(started - maxAgeMs);
    const prepublishCutoff = new Date(started - Math.max(0, maxAgeMs - prepublishMs));
    const rolled = await this.sweep(
      (em) => this.keys.claimDueWithPublishedNext(em, rollCutoff, new Date(started - leadMs)),
      (em, key) => this.rollover(em, key.tenantId, key.algorithm),
    );
    await this.sweep(
      (em) => this.keys.claimDueWithoutNext(em, prepublishCutoff),
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
      certificateDer: keyCertificate(generated.privateKeyDer, generated.kid),
      activatedAt,
    });
  }

  /** Keys made before keys had a certificate get one (once; a concurrent replica's wins). */
  private async certifyKeys(tenantId: string): Promise<void> {
    for (const key of await this.keys.findUncertified(tenantId)) {
      const der = this.encryptor.decrypt(key.privateKeyEncrypted, key.kid);
      await this.keys.setCertificate(key.id, keyCertificate(der, key.kid));
    }
  }

  private async loadSigner(tenantId: string): Promise<Signer> {
    const [tenant, active] = await Promise.all([
      this.tenants.getById(tenantId),
      this.keys.findActiveWithPrivateKey(tenantId),
    ]);
    let key = active;
    // No key yet, or the algorithm was changed by an app that does not load this module: a key of
    // that algorithm is published (created at once when there is none), and signs when it is due.
    if (!key || key.algorithm !== tenant.signingAlgorithm) {
      key = await this.dataSource.transaction((em) => this.ensureActiveKey(em, tenantId, tenant.signingAlgorithm));
    }
    const der = this.encryptor.decrypt(key.privateKeyEncrypted, key.kid);
    return { key: privateKeyFromDer(der), kid: key.kid, alg: key.algorithm };
  }

  private publishedKeys(tenantId: string): Promise<PublishedKey[]> {
    return this.published.get(tenantId, tenantId, async () => {
      let rows = await this.keys.findPublished(tenantId);
      if (rows.some((row) => !row.certificateDer)) {
        await this.certifyKeys(tenantId);
        rows = await this.keys.findPublished(tenantId);
      }
      return rows.map((row) => ({ jwk: publishedJwk(row), alg: row.algorithm, key: publicKeyFromJwk(row.publicJwk) }));
    });
  }
}
