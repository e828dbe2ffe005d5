import { type ChangeEvent, type ChangeKind, type ChangeListener, isDatabaseUnavailable } from '@gatehouse/database';

interface Entry<V> {
  tenantId: string;
  value: Promise<V>;
  expiresAt: number;
  /** Set once the load has resolved, so the hot path can read the value without a promise. */
  settled?: { value: V };
}

/** What {@link ChangeAwareCache.peek} answers when no settled, fresh value is at hand. */
export const NOT_CACHED: unique symbol = Symbol('not cached');

export interface ChangeAwareCacheOptions {
  /** Change kinds that drop this cache's entries of the event's tenant. */
  kinds: ChangeKind[];
  /** Upper bound on an entry's age, a safety net behind the change events. */
  ttlMs: number;
  /** Narrows eviction to entries whose key matches the event's id (default: the whole tenant). */
  matches?: (key: string, event: ChangeEvent) => boolean;
  maxEntries?: number;
  /** Any relevant event drops every entry (for caches keyed by something other than the tenant). */
  dropAllOnChange?: boolean;
  /**
   * While Postgres is down, serve the entries loaded before the outage for this long after it
   * began (TOKEN_OUTAGE_GRACE_SECONDS); 0 or absent: never.
   */
  outageGraceMs?: number;
}

/**
 * A per-replica cache that trusts itself only while the change listener is connected. Entries
 * hold the loading promise from the start, so a change announced while a load is in flight drops
 * that load too. `{kind: 'tenant', tenantId: '*'}` (sent on every (re)connect) drops everything.
 *
 * Through a database outage (see {@link ChangeListener.servesHeldEntries}) the entries it held
 * when the outage began are served, whatever their age, until the grace period ends; nothing new
 * is learnt meanwhile, and the reconnection drops them all.
 */
export class ChangeAwareCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private changes = 0;

  constructor(
    private readonly listener: ChangeListener,
    private readonly options: ChangeAwareCacheOptions,
  ) {
    listener.subscribe((event) => this.onChange(event));
  }

  get(key: string, tenantId: string, load: () => Promise<V>): Promise<V> {
    if (!this.listener.connected) return this.getDisconnected(key, load);
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && cached.expiresAt > now) return cached.value;
    if (this.entries.size >= (this.options.maxEntries ?? 100_000)) this.entries.clear();
    const value = load();
    const entry: Entry<V> = { tenantId, value, expiresAt: now + this.options.ttlMs };
    this.entries.set(key, entry);
    value.then(
      (loaded) => void (entry.settled = { value: loaded }),
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  /**
   * The value {@link get} would answer, without a promise, when it is loaded, fresh and trusted;
   * else {@link NOT_CACHED} and the caller goes through {@link get}.
   */
  peek(key: string): V | typeof NOT_CACHED {
    if (!this.listener.connected) return this.held(key);
    const cached = this.entries.get(key);
    return cached?.settled && cached.expiresAt > Date.now() ? cached.settled.value : NOT_CACHED;
  }

  /**
   * Counts the relevant change events seen so far: a caller that computed a value outside
   * {@link get} stores it with {@link remember} only if no change arrived meanwhile.
   */
  get version(): number {
    return this.changes;
  }

  /** True when a fresh entry exists (always false while the listener is disconnected). */
  has(key: string): boolean {
    const cached = this.entries.get(key);
    return this.listener.connected && cached !== undefined && cached.expiresAt > Date.now();
  }

  /** Stores a value computed elsewhere, unless a change event arrived since `version` was read. */
  remember(key: string, tenantId: string, value: V, version: number): void {
    if (!this.listener.connected || version !== this.changes) return;
    if (this.entries.size >= (this.options.maxEntries ?? 100_000)) this.entries.clear();
    this.entries.set(key, {
      tenantId,
      value: Promise.resolve(value),
      expiresAt: Date.now() + this.options.ttlMs,
      settled: { value },
    });
  }

  /** Drops one entry (e.g. a miss that must not be remembered). */
  forget(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Disconnected: a held entry through a confirmed outage, else a load (whose failure may confirm one). */
  private getDisconnected(key: string, load: () => Promise<V>): Promise<V> {
    const held = this.held(key);
    if (held !== NOT_CACHED) return Promise.resolve(held);
    return load().catch((error: unknown) => {
      if (!isDatabaseUnavailable(error)) throw error;
      this.listener.reportUnreachable();
      const fallback = this.held(key);
      if (fallback === NOT_CACHED) throw error;
      return fallback;
    });
  }

  /** The value loaded before the outage, while the outage is confirmed and within its grace. */
  private held(key: string): V | typeof NOT_CACHED {
    if (!this.listener.servesHeldEntries(this.options.outageGraceMs ?? 0)) return NOT_CACHED;
    const settled = this.entries.get(key)?.settled;
    return settled ? settled.value : NOT_CACHED;
  }

  private onChange(event: ChangeEvent): void {
    const relevant = event.tenantId === '*' || event.kind === 'tenant' || this.options.kinds.includes(event.kind);
    if (!relevant) return;
    this.changes++;
    if (event.tenantId === '*') return this.clear();
    if (this.options.dropAllOnChange) return this.clear();
    for (const [key, entry] of this.entries) {
      if (entry.tenantId !== event.tenantId) continue;
      if (event.kind === 'tenant' || event.id === '*' || !this.options.matches || this.options.matches(key, event)) {
        this.entries.delete(key);
      }
    }
  }
}
