import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SecretHasher } from '@gatehouse/crypto';
import { Tenant } from '@gatehouse/tenants';
import type { ApiRow, ClientSnapshot } from './client-credentials.repository.js';
import { UNPACKED_LINES } from './change-aware-cache.js';
import { CredentialDirectory } from './credential-directory.js';
import { SigningKeyService } from './signing-key.service.js';

/** A synthetic tenant and client, held in the token path's caches until released. */
export interface WarmUpIdentity {
  /** The token path's tenant segment (the synthetic tenant's id). */
  tenant: string;
  /** Form bodies, one per held client, that the client is issued a token for. */
  bodies: string[];
  release(): void;
}

const SCOPE = 'Warm.Up';

/**
 * Clients the warm-up holds and takes in turn: more than the client cache keeps unpacked
 * ({@link UNPACKED_LINES}), so that the path of a client read from its packed entry is warmed up too, as
 * a replica's first requests from many clients take it (one client would be unpacked only once).
 * In a cache the preload filled, each takes a real client's place for the warm-up's second; those
 * clients are read again on their next request.
 */
const WARM_UP_CLIENTS = UNPACKED_LINES + 64;

/**
 * What an identity app issues tokens to before it serves: a tenant, an API, active clients with a
 * secret and an ES256 key that exist in this process' memory only (never in the database, never in
 * another replica), random on every start. Held through the caches the token endpoint reads, so
 * the requests take the very path real ones take; released (dropped from the caches) after.
 */
@Injectable()
export class TokenWarmUp {
  constructor(
    private readonly directory: CredentialDirectory,
    private readonly signingKeys: SigningKeyService,
    private readonly hasher: SecretHasher,
  ) {}

  /** The held identity, or null when the caches cannot hold it now (change listener not connected). */
  prepare(): WarmUpIdentity | null {
    const tenant = Object.assign(new Tenant(), {
      id: randomUUID(),
      slug: `warm-up-${randomBytes(8).toString('hex')}`,
      displayName: 'Warm-up',
      signingAlgorithm: 'ES256',
      accessTokenLifetimeSeconds: 3599,
      extAccessTokenLifetimeSeconds: 3599,
      scopeRequests: 'extended',
      createdAt: new Date(),
      updatedAt: new Date(),
    } satisfies Tenant);
    const api: ApiRow = {
      id: randomUUID(),
      appId: randomUUID(),
      identifier: 'api://warm-up',
      builtIn: false,
      scopes: [SCOPE],
      accessTokenVersion: 2,
      accessTokenTyp: 'JWT',
    };
    const clients = Array.from({ length: WARM_UP_CLIENTS }, () => {
      const secret = randomBytes(32).toString('base64url');
      const snapshot: ClientSnapshot = {
        client: {
          id: randomUUID(),
          clientId: randomUUID(),
          state: 'active',
          ownerUserId: null,
          ownerStatus: null,
          ownerRoles: [],
        },
        secrets: [{ hash: this.hasher.hash(secret).toString('latin1'), expiresAtMs: Date.now() + 3_600_000 }],
        certificates: [],
        grants: new Map([[api.id, [SCOPE]]]),
        limits: null,
      };
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: snapshot.client.clientId,
        client_secret: secret,
        scope: `${api.identifier}/.default`,
      }).toString();
      return { snapshot, body };
    });
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const releaseDirectory = this.directory.holdSynthetic(
      tenant,
      api,
      clients.map((c) => c.snapshot),
    );
    if (!releaseDirectory) return null;
    const releaseSigner = this.signingKeys.holdSynthetic(tenant.id, { key: privateKey, kid: 'warm-up', alg: 'ES256' });
    return {
      tenant: tenant.id,
      bodies: clients.map((c) => c.body),
      release: () => {
        releaseDirectory();
        releaseSigner();
      },
    };
  }
}
