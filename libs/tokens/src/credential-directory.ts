import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { ChangeListener } from '@gatehouse/database';
import { MetricsRegistry } from '@gatehouse/http';
import { type Tenant, TenantService } from '@gatehouse/tenants';
import { ChangeAwareCache, NOT_CACHED } from './change-aware-cache.js';
import { type ApiRow, ClientCredentialsRepository, type ClientSnapshot } from './client-credentials.repository.js';
import { tokenExchangeResource } from './federation/token-exchange-resource.js';
import { SnapshotCodec } from './snapshot-codec.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The form a client id is counted, cached and looked up under: a UUID in lower case, else as given. */
export function canonicalClientId(clientId: string): string {
  return UUID.test(clientId) ? clientId.toLowerCase() : clientId.slice(0, 256);
}

const FIVE_MINUTES = 5 * 60_000;
/** Clients per round trip of the start-up preload. */
const PRELOAD_BATCH = 1000;

/**
 * Cached reads of the hot path. Entries are dropped on change events (client: by client id;
 * user: the tenant's clients, since an owner's roles or status changed; tenant: everything of the
 * tenant) and bypassed while the change listener is disconnected, except through a database
 * outage: then tenants, APIs and clients held in memory keep serving for TOKEN_OUTAGE_GRACE_SECONDS
 * (unknown client ids are not held: they are answered 503 until the database is back).
 */
@Injectable()
export class CredentialDirectory {
  private readonly tenants: ChangeAwareCache<Tenant | null>;
  private readonly apis: ChangeAwareCache<ApiRow | null>;
  private readonly clients: ChangeAwareCache<ClientSnapshot | null>;
  /** Client ids that name no client: kept apart and bounded, so a spray of random ids cannot flush the real ones. */
  private readonly unknownClients: ChangeAwareCache<true>;

  constructor(
    private readonly tenantService: TenantService,
    private readonly repository: ClientCredentialsRepository,
    listener: ChangeListener,
    @Inject(APP_CONFIG) config: AppConfig,
    metrics: MetricsRegistry,
  ) {
    const stats = { hits: metrics.cacheHits, misses: metrics.cacheMisses };
    const byClientId = (key: string, event: { kind: string; id: string }) =>
      event.kind === 'user' || key.endsWith(`|${event.id}`);
    // A client's own change names one key: dropped without a scan of the tenant's (up to 10⁵) entries.
    const clientKey = (event: { kind: string; tenantId: string; id: string }) =>
      event.kind === 'client' ? `${event.tenantId}|${event.id}` : null;
    const outageGraceMs = config.tokenOutageGraceSeconds * 1000;
    this.tenants = new ChangeAwareCache(listener, {
      kinds: ['tenant'],
      ttlMs: FIVE_MINUTES,
      dropAllOnChange: true,
      outageGraceMs,
      stats,
    });
    this.apis = new ChangeAwareCache(listener, { kinds: ['tenant'], ttlMs: 60_000, outageGraceMs, stats });
    this.clients = new ChangeAwareCache(listener, {
      kinds: ['client', 'user'],
      ttlMs: FIVE_MINUTES,
      matches: byClientId,
      keyOf: clientKey,
      maxEntries: config.tokenCacheClients,
      doorkeeper: true,
      outageGraceMs,
      stats,
      codec: new SnapshotCodec(),
    });
    this.unknownClients = new ChangeAwareCache(listener, {
      kinds: ['client'],
      ttlMs: 60_000,
      matches: byClientId,
      keyOf: clientKey,
      maxEntries: 10_000,
    });
  }

  /**
   * Holds a tenant, its API and clients that exist in memory only (the start-up warm-up's) until
   * the returned release is called; null, holding nothing, when the caches cannot hold entries now
   * (the change listener is not connected).
   */
  holdSynthetic(tenant: Tenant, api: ApiRow, snapshots: ClientSnapshot[]): (() => void) | null {
    const apiKey = `${tenant.id}|${api.identifier}`;
    const clientKeys = snapshots.map((snapshot) => storedKey(tenant.id, snapshot.client.clientId));
    const release = () => {
      this.tenants.forget(tenant.id);
      this.apis.forget(apiKey);
      for (const key of clientKeys) this.clients.forget(key);
    };
    this.tenants.remember(tenant.id, '', tenant, this.tenants.version);
    this.apis.remember(apiKey, tenant.id, api, this.apis.version);
    snapshots.forEach((snapshot, i) => this.clients.remember(clientKeys[i]!, tenant.id, snapshot, this.clients.version));
    if (this.tenants.has(tenant.id) && this.apis.has(apiKey) && clientKeys.every((key) => this.clients.has(key))) return release;
    release();
    return null;
  }

  /**
   * Fills the client cache as a replica starts, before it serves: up to `limit` active clients (at
   * most the cache's bound; the most recently changed first), read in batches of
   * {@link PRELOAD_BATCH}, two at a time. Their entries end at spread times over the second half of
   * the TTL, so they are not all read again in the same second. Returns how many were stored
   * (none while the change listener is disconnected: nothing could tell the entries stale).
   */
  async preloadClients(limit: number): Promise<number> {
    const wanted = await this.repository.recentActiveClients(Math.min(limit, this.clients.capacity));
    let next = 0;
    let stored = 0;
    const lane = async () => {
      while (next < wanted.length) {
        const batch = wanted.slice(next, next + PRELOAD_BATCH);
        next += batch.length;
        const version = this.clients.version;
        const snapshots = await this.repository.readSnapshots(batch);
        snapshots.forEach((snapshot, i) => {
          if (!snapshot) return;
          const key = storedKey(batch[i]!.tenantId, batch[i]!.clientId);
          this.clients.remember(key, batch[i]!.tenantId, snapshot, version, FIVE_MINUTES * (0.5 + Math.random() / 2));
          if (this.clients.has(key)) stored++;
        });
      }
    };
    await Promise.all([lane(), lane()]);
    return stored;
  }

  /** The tenant when it is cached (never an unknown one: those are not remembered), else undefined. */
  cachedTenant(idOrSlug: string): Tenant | undefined {
    const found = this.tenants.peek(idOrSlug.toLowerCase());
    return found === NOT_CACHED || found === null ? undefined : found;
  }

  /** The API (or its known absence) when cached, else undefined: the hot path's synchronous read. */
  cachedApi(tenantId: string, resource: string): ApiRow | null | undefined {
    const found = this.apis.peek(`${tenantId}|${resource}`);
    return found === NOT_CACHED ? undefined : found;
  }

  /** The client's snapshot, or null for an id that names no client, when known without a query; else undefined. */
  cachedClient(tenantId: string, clientId: string): ClientSnapshot | null | undefined {
    if (!UUID.test(clientId)) return null;
    const key = `${tenantId}|${clientId.toLowerCase()}`;
    if (this.unknownClients.has(key)) return null;
    const found = this.clients.peek(key);
    return found === NOT_CACHED ? undefined : found;
  }

  /** A tenant by id or slug (both case-insensitive); unknown ones are not remembered. */
  async tenant(idOrSlug: string): Promise<Tenant | null> {
    const key = idOrSlug.toLowerCase();
    const found = await this.tenants.get(key, '', () => this.tenantService.findByIdOrSlug(key));
    if (!found) this.tenants.forget(key);
    return found;
  }

  async api(tenantId: string, resource: string): Promise<ApiRow | null> {
    const key = `${tenantId}|${resource}`;
    const found = await this.apis.get(key, tenantId, async () => {
      return (await this.repository.findApi(tenantId, parseResource(resource))) ?? tokenExchangeResource(resource);
    });
    if (!found) this.apis.forget(key);
    return found;
  }

  /**
   * The client's snapshot, or null. Misses are remembered too (creating a client announces it,
   * which drops the entry), so an unknown client costs what a known one with a wrong secret does.
   */
  async client(tenantId: string, clientId: string): Promise<ClientSnapshot | null> {
    if (!UUID.test(clientId)) return null;
    const id = clientId.toLowerCase();
    const key = storedKey(tenantId, id);
    if (this.unknownClients.has(key)) return null;
    const version = this.unknownClients.version;
    const found = await this.clients.get(key, tenantId, () => this.repository.findSnapshot(tenantId, id));
    if (!found) {
      this.clients.forget(key);
      this.unknownClients.remember(key, tenantId, true, version);
    }
    return found;
  }
}

/**
 * A client's key as the cache stores it: one flat string. A key built by concatenation is a
 * tree of three strings that keeps its parts alive; a hundred thousand of them are that many
 * more objects for every major collection to mark. Only misses build one (two UUIDs: latin1).
 */
function storedKey(tenantId: string, clientId: string): string {
  return Buffer.from(`${tenantId}|${clientId}`, 'latin1').toString('latin1');
}

/** `api://orders`, `api://<appId>` or a bare `<appId>`. */
function parseResource(resource: string): { identifier?: string; appId?: string } {
  if (UUID.test(resource)) return { appId: resource.toLowerCase() };
  const appId = resource.startsWith('api://') ? resource.slice(6) : '';
  return UUID.test(appId) ? { identifier: resource, appId: appId.toLowerCase() } : { identifier: resource };
}
