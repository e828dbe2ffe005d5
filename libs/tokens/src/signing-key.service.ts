import { KeyObject } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type JWTPayload, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { KeyEncryptor } from '@gatehouse/crypto';
import { ChangeListener, announceChange } from '@gatehouse/database';
import { type SigningAlgorithm, TenantService } from '@gatehouse/tenants';
import { ChangeAwareCache } from './change-aware-cache.js';
import { generateSigningKey, privateKeyFromDer, publicKeyFromJwk, publicMembers } from './key-material.js';
import { SigningKey } from './signing-key.entity.js';
import { SigningKeyRepository } from './signing-key.repository.js';
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
const ROTATION_BATCH = 100;

/** The issuer of a tenant's tokens, exactly as discovery announces it. */
export function issuerOf(publicUrl: string, tenantId: string): string {
  return `${publicUrl}/${tenantId}/v2.0`;
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
    this.signers = new ChangeAwareCache(listener, { kinds: ['keys'], ttlMs: 5 * 60_000 });
    this.published = new ChangeAwareCache(listener, { kinds: ['keys'], ttlMs: 60_000 });
    tenants.onAlgorithmChange((em, tenant) => this.rollover(em, tenant.id, tenant.signingAlgorithm).then(() => undefined));
  }

  /** The tenant's active key, created (or replaced, when its algorithm differs) if need be. */
  async ensureActiveKey(em: EntityManager, tenantId: string, alg: SigningAlgorithm): Promise<SigningKey> {
    await this.keys.lockTenantKeys(em, tenantId);
    const active = await this.keys.findActiveWithPrivateKey(tenantId, em);
    if (active && active.algorithm === alg) return active;
    return this.rollover(em, tenantId, alg);
  }

  /** A new key becomes active at once; the previous one is retired but published until its tokens expire. */
  async rollover(em: EntityManager, tenantId: string, alg: SigningAlgorithm): Promise<SigningKey> {
    await this.keys.lockTenantKeys(em, tenantId);
    const tenant = await this.tenants.getById(tenantId, em);
    const publishUntil = new Date(Date.now() + (tenant.extAccessTokenLifetimeSeconds + 300) * 1000);
    await this.keys.retireActive(em, tenantId, publishUntil);
    const generated = await generateSigningKey(alg);
    const key = await this.keys.insert(em, {
      tenantId,
      kid: generated.kid,
      algorithm: alg,
      status: 'active',
      publicJwk: generated.publicJwk,
      privateKeyEncrypted: this.encryptor.encrypt(generated.privateKeyDer, generated.kid),
      activatedAt: new Date(),
    });
    await announceChange(em, 'keys', tenantId, '*');
    this.logger.log(`signing key ${generated.kid} (${alg}) active for tenant ${tenantId}`);
    return key;
  }

  /** The key that signs the tenant's tokens now; cached until a key or tenant change. */
  signer(tenantId: string): Promise<Signer> {
    return this.signers.get(tenantId, tenantId, () => this.loadSigner(tenantId));
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
      if (header.alg !== match.alg) throw new AccessTokenError(AccessTokenErrorCode.InvalidSignature, 'algorithm mismatch');
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
   * Rolls every active key older than `maxAgeMs`. Takes a transaction-scoped advisory lock first:
   * when another worker is already rotating, returns 0 without doing anything.
   */
  async rotateDueKeys(maxAgeMs = DEFAULT_SIGNING_KEY_MAX_AGE_MS): Promise<number> {
    return this.dataSource.transaction(async (em) => {
      if (!(await this.keys.tryLockRotation(em))) return 0;
      const due = await this.keys.findDueTenants(em, new Date(Date.now() - maxAgeMs), ROTATION_BATCH);
      for (const { tenantId, algorithm } of due) await this.rollover(em, tenantId, algorithm as SigningAlgorithm);
      return due.length;
    });
  }

  private async loadSigner(tenantId: string): Promise<Signer> {
    const [tenant, active] = await Promise.all([this.tenants.getById(tenantId), this.keys.findActiveWithPrivateKey(tenantId)]);
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
  if (error instanceof joseErrors.JWTExpired) return new AccessTokenError(AccessTokenErrorCode.Expired, 'token expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new AccessTokenError(AccessTokenErrorCode.InvalidClaims, `claim check failed: ${error.claim}`);
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new AccessTokenError(AccessTokenErrorCode.InvalidSignature, 'signature verification failed');
  }
  return new AccessTokenError(AccessTokenErrorCode.Malformed, 'malformed token');
}
