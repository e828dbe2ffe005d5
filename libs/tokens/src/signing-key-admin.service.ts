import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type Actor, AuditService } from '@gatehouse/audit';
import { type SigningAlgorithm, TenantService } from '@gatehouse/tenants';
import type { SigningKey, SigningKeyStatus } from './signing-key.entity.js';
import { SigningKeyRepository } from './signing-key.repository.js';
import { SigningKeyService } from './signing-key.service.js';

/** A tenant's signing key as operators see it: never a private half, never key material. */
export interface SigningKeyView {
  kid: string;
  algorithm: SigningAlgorithm;
  status: SigningKeyStatus;
  /** Whether the JWKS publishes it now (so tokens it signed verify). */
  published: boolean;
  createdAt: string;
  activatedAt: string | null;
  retiredAt: string | null;
  /** A retired key: published until then; a revoked one: listed until then. */
  publishedUntil: string | null;
}

/** The keys as Keycloak's key list has them: the active `kid` per algorithm, then every key. */
export interface SigningKeyList {
  active: Partial<Record<SigningAlgorithm, string>>;
  keys: SigningKeyView[];
}

export interface RolloverInput {
  /** Take the previous key out of the JWKS at once: every token it signed stops verifying. */
  revokePrevious?: boolean;
}

/** What an emergency rollover did: the key that signs now, and what became of the one before. */
export interface RolloverResult {
  kid: string;
  algorithm: SigningAlgorithm;
  activatedAt: string;
  revokedPrevious: boolean;
  previous: SigningKeyView | null;
}

export function toSigningKeyView(key: SigningKey): SigningKeyView {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const retiredAndPublished = key.status === 'retired' && key.publishUntil !== null && key.publishUntil.getTime() > Date.now();
  return {
    kid: key.kid,
    algorithm: key.algorithm,
    status: key.status,
    published: key.status === 'active' || key.status === 'next' || retiredAndPublished,
    createdAt: key.createdAt.toISOString(),
    activatedAt: iso(key.activatedAt),
    retiredAt: iso(key.retiredAt),
    publishedUntil: iso(key.publishUntil),
  };
}

/**
 * The emergency rollover for the day a key leaks, and the key list, for Administrators
 * (`Tenant.Manage`: the REST API, the console and the CLI call exactly this). A fresh key signs
 * at once; the previous one is retired (still published until its last token expires) or, with
 * `revokePrevious`, revoked (out of the JWKS at once). Every identity replica hears of it through
 * the change notification its caches listen to, in the transaction's commit.
 */
@Injectable()
export class SigningKeyAdminService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly keys: SigningKeyRepository,
    private readonly signingKeys: SigningKeyService,
    private readonly tenants: TenantService,
    private readonly audit: AuditService,
  ) {}

  async list(tenantId: string): Promise<SigningKeyList> {
    const keys = (await this.keys.findAll(tenantId)).map(toSigningKeyView);
    const active: SigningKeyList['active'] = {};
    for (const key of keys) if (key.status === 'active') active[key.algorithm] = key.kid;
    return { active, keys };
  }

  rollover(tenantId: string, actor: Actor, input: RolloverInput = {}): Promise<RolloverResult> {
    const revokePrevious = input.revokePrevious === true;
    return this.dataSource.transaction(async (em) => {
      // Locks in the order the other key changes take them, so none waits on another in turn: the
      // tenant's row (as PATCH /tenant), the active key's row (as the scheduled rotation), the key lock.
      const tenant = await this.tenants.lock(em, tenantId);
      await this.keys.lockActive(em, tenantId);
      await this.keys.lockTenantKeys(em, tenantId);
      const previous = await this.keys.findActiveWithPrivateKey(tenantId, em);
      // A leak may not stop at one key: the pre-published next key's private half sat beside it.
      await this.keys.deleteNext(em, tenantId);
      const active = await this.signingKeys.rollover(em, tenantId, tenant.signingAlgorithm);
      if (revokePrevious && previous) await this.keys.revoke(em, previous.id);
      const before = previous ? await this.keys.findById(em, previous.id) : null;
      const result: RolloverResult = {
        kid: active.kid,
        algorithm: active.algorithm,
        activatedAt: (active.activatedAt ?? active.createdAt).toISOString(),
        revokedPrevious: revokePrevious,
        previous: before ? toSigningKeyView(before) : null,
      };
      await this.audit.record(em, {
        tenantId,
        actor,
        action: 'tenant.signing_key.rolled_over',
        targetType: 'tenant',
        targetId: tenantId,
        details: {
          kid: result.kid,
          algorithm: result.algorithm,
          previousKid: result.previous?.kid ?? null,
          previousStatus: result.previous?.status ?? null,
          previousPublishedUntil: result.previous?.publishedUntil ?? null,
          revokedPrevious: revokePrevious,
        },
      });
      return result;
    });
  }
}
