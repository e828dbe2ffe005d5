import { Injectable } from '@nestjs/common';
import { ChangeListener } from '@gatehouse/database';
import { type Tenant, TenantService } from '@gatehouse/tenants';
import { ChangeAwareCache } from './change-aware-cache.js';
import { type ApiRow, type ClientRow, ClientCredentialsRepository, type SecretRow } from './client-credentials.repository.js';

/** Everything the token endpoint needs to know about one client, cached per (tenant, client id). */
export interface ClientSnapshot {
  client: ClientRow;
  secrets: SecretRow[];
  /** Granted scope values by API id. */
  grants: Map<string, string[]>;
  blockedUntil: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Cached reads of the hot path. Entries are dropped on change events (client: by client id;
 * user: the tenant's clients, since an owner's roles or status changed; tenant: everything of the
 * tenant) and bypassed while the change listener is disconnected. Tenant and API misses are not cached.
 */
@Injectable()
export class CredentialDirectory {
  private readonly tenants: ChangeAwareCache<Tenant | null>;
  private readonly apis: ChangeAwareCache<ApiRow | null>;
  private readonly clients: ChangeAwareCache<ClientSnapshot | null>;

  constructor(
    private readonly tenantService: TenantService,
    private readonly repository: ClientCredentialsRepository,
    listener: ChangeListener,
  ) {
    this.tenants = new ChangeAwareCache(listener, { kinds: ['tenant'], ttlMs: 5 * 60_000, dropAllOnChange: true });
    this.apis = new ChangeAwareCache(listener, { kinds: ['tenant'], ttlMs: 60_000 });
    this.clients = new ChangeAwareCache(listener, {
      kinds: ['client', 'user'],
      ttlMs: 5 * 60_000,
      matches: (key, event) => event.kind === 'user' || key.endsWith(`|${event.id}`),
    });
  }

  async tenant(idOrSlug: string): Promise<Tenant | null> {
    const key = idOrSlug.toLowerCase();
    const found = await this.tenants.get(key, '', () => this.tenantService.findByIdOrSlug(idOrSlug));
    if (!found) this.tenants.forget(key);
    return found;
  }

  async api(tenantId: string, resource: string): Promise<ApiRow | null> {
    const key = `${tenantId}|${resource}`;
    const found = await this.apis.get(key, tenantId, () => this.repository.findApi(tenantId, parseResource(resource)));
    if (!found) this.apis.forget(key);
    return found;
  }

  async client(tenantId: string, clientId: string): Promise<ClientSnapshot | null> {
    if (!UUID.test(clientId)) return null;
    const key = `${tenantId}|${clientId.toLowerCase()}`;
    // Misses are cached too (client ids are random UUIDs; creating one announces it, which drops
    // the entry), so an unknown client costs the same as a known one with a wrong secret.
    return this.clients.get(key, tenantId, () => this.loadClient(tenantId, clientId.toLowerCase()));
  }

  private async loadClient(tenantId: string, clientId: string): Promise<ClientSnapshot | null> {
    const [client, blockedUntil] = await Promise.all([
      this.repository.findClient(tenantId, clientId),
      this.repository.findBlockedUntil(tenantId, clientId),
    ]);
    if (!client) return null;
    const [secrets, grants] = await Promise.all([
      this.repository.findUsableSecrets(tenantId, client.id),
      this.repository.findGrants(tenantId, client.id),
    ]);
    return { client, secrets, grants, blockedUntil };
  }
}

/** `api://orders`, `api://<appId>` or a bare `<appId>`. */
function parseResource(resource: string): { identifier?: string; appId?: string } {
  if (UUID.test(resource)) return { appId: resource.toLowerCase() };
  const appId = resource.startsWith('api://') ? resource.slice(6) : '';
  return UUID.test(appId) ? { identifier: resource, appId: appId.toLowerCase() } : { identifier: resource };
}
