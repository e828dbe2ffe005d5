import { type ChangeEvent, type ChangeKind, type ChangeListener, isDatabaseUnavailable } from '@gatehouse/database';
import { Doorkeeper } from './doorkeeper.js';
import { SlotTable } from './slot-table.js';

/** The bound of a cache that names none: every cache of the token path is bounded. */
export const DEFAULT_MAX_ENTRIES = 100_000;

/** What {@link ChangeAwareCache.peek} answers when no settled, fresh value is at hand. */
export const NOT_CACHED: unique symbol = Symbol('not cached');

/**
 * How a cache keeps its values: packed into a form with fewer objects for the collector to mark
 * (a string), and unpacked when read. `pack` may answer the value itself (a form it cannot pack).
 */
export interface CacheCodec<V> {
  pack(value: V): unknown;
  unpack(stored: unknown): V;
}

/** Unpacked values kept for reuse, by slot (direct-mapped): a hot client is unpacked once, not per read. */
export const UNPACKED_LINES = 256;

export interface ChangeAwareCacheOptions<V = unknown> {
  /** Change kinds that drop this cache's entries of the event's tenant. */
  kinds: ChangeKind[];
  /** Upper bound on an entry's age, a safety net behind the change events. */
  ttlMs: number;
  /** Narrows eviction to entries whose key matches the event's id (default: the whole tenant). */
  matches?: (key: string, event: ChangeEvent) => boolean;
  /**
   * The one key an event names, when it names exactly one (e.g. a client's change): that entry is
   * dropped without a scan of the tenant's entries. null falls back to {@link matches}.
   */
  keyOf?: (event: ChangeEvent) => string | null;
  /**
   * At most this many entries (default {@link DEFAULT_MAX_ENTRIES}). A new entry beyond it evicts
   * the least recently used one, approximately (CLOCK: the oldest entry not read since the hand
   * last passed it), so memory stays bounded whatever the number of clients.
   */
  maxEntries?: number;
  /**
   * Scan resistance: once the cache is full, a key it does not hold is stored only on its second
   * request among the last `maxEntries` such keys ({@link Doorkeeper}, as TinyLFU's); its first
   * is served without being stored. Keys requested in turn over more than the bound (a million
   * clients round robin) then leave the cache as it is, instead of replacing an entry per request.
   */
  doorkeeper?: boolean;
  /** Any relevant event drops every entry (for caches keyed by something other than the tenant). */
  dropAllOnChange?: boolean;
  /**
   * While Postgres is down, serve the entries loaded before the outage for this long after it
   * began (TOKEN_OUTAGE_GRACE_SECONDS); 0 or absent: never.
   */
  outageGraceMs?: number;
  /** Counts {@link ChangeAwareCache.peek}'s answers (the hit ratio on /metrics); an increment each. */
  stats?: { hits: { count: number }; misses: { count: number } };
  /** Stores values packed (see {@link CacheCodec}); absent: as they are. */
  codec?: CacheCodec<V>;
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
  private readonly entries: SlotTable;
  private changes = 0;
  /** The stored forms last unpacked, and what they unpacked to, by slot modulo {@link UNPACKED_LINES}. */
  private readonly unpackedFrom: unknown[] = new Array(UNPACKED_LINES).fill(undefined);
  private readonly unpacked: Array<V | undefined> = new Array(UNPACKED_LINES).fill(undefined);
  private readonly maxEntries: number;
  /** Keys refused admission once (see {@link ChangeAwareCacheOptions.doorkeeper}). */
  private readonly refused: Doorkeeper | null;

  constructor(
    private readonly listener: ChangeListener,
    private readonly options: ChangeAwareCacheOptions<V>,
  ) {
    this.maxEntries = Math.max(1, options.maxEntries ?? DEFAULT_MAX_ENTRIES);
    this.entries = new SlotTable(this.maxEntries);
    this.refused = options.doorkeeper ? new Doorkeeper(this.maxEntries) : null;
    listener.subscribe((event) => this.onChange(event));
  }

  /** How many entries are held (never more than the bound). */
  get size(): number {
    return this.entries.size;
  }

  get(key: string, tenantId: string, load: () => Promise<V>): Promise<V> {
    if (!this.listener.connected) return this.getDisconnected(key, load);
    const now = Date.now();
    const cached = this.entries.find(key);
    if (cached >= 0 && this.entries.expiresAt(cached) > now) {
      this.entries.markUsed(cached);
      return this.entries.settled(cached)
        ? Promise.resolve(this.valueAt(cached))
        : (this.entries.value(cached) as Promise<V>);
    }
    const value = load();
    if (!this.admits(key)) return value;
    const previous = cached >= 0 && this.entries.settled(cached) ? this.entries.value(cached) : undefined;
    const slot = this.entries.put(key, tenantId, value, now + this.options.ttlMs, false);
    value.then(
      (loaded) => this.entries.settle(slot, value, this.pack(loaded), previous),
      () => this.entries.abandon(slot, value),
    );
    return value;
  }

  /**
   * The value {@link get} would answer, without a promise, when it is loaded, fresh and trusted;
   * else {@link NOT_CACHED} and the caller goes through {@link get}.
   */
  peek(key: string): V | typeof NOT_CACHED {
    if (!this.listener.connected) return this.held(key);
    const cached = this.entries.find(key);
    if (cached >= 0 && this.entries.settled(cached) && this.entries.expiresAt(cached) > Date.now()) {
      this.entries.markUsed(cached);
      if (this.options.stats) this.options.stats.hits.count++;
      return this.valueAt(cached);
    }
    if (this.options.stats) this.options.stats.misses.count++;
    return NOT_CACHED;
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
    const cached = this.entries.find(key);
    return this.listener.connected && cached >= 0 && this.entries.expiresAt(cached) > Date.now();
  }

  /**
   * Stores a value computed elsewhere, unless a change event arrived since `version` was read; it
   * lives `ttlMs` (at most the cache's own: a preload spreads its entries' ends over the TTL).
   */
  remember(key: string, tenantId: string, value: V, version: number, ttlMs = this.options.ttlMs): void {
    if (!this.listener.connected || version !== this.changes) return;
    const expiresAt = Date.now() + Math.min(ttlMs, this.options.ttlMs);
    this.entries.put(key, tenantId, this.pack(value), expiresAt, true);
  }

  /** The cache's bound on entries. */
  get capacity(): number {
    return this.maxEntries;
  }

  /** Whether a loaded value of `key` is to be stored (always, but past a full cache's doorkeeper). */
  private admits(key: string): boolean {
    if (!this.refused || this.entries.size < this.maxEntries || this.entries.find(key) >= 0) return true;
    return this.refused.seenBefore(key);
  }

  private pack(value: V): unknown {
    return this.options.codec ? this.options.codec.pack(value) : value;
  }

  /** The settled value in `slot`, unpacked (once while it stays in its line of the unpacked values). */
  private valueAt(slot: number): V {
    const stored = this.entries.value(slot);
    if (!this.options.codec) return stored as V;
    const line = slot % UNPACKED_LINES;
    if (this.unpackedFrom[line] === stored) return this.unpacked[line] as V;
    const value = this.options.codec.unpack(stored);
    this.unpackedFrom[line] = stored;
    this.unpacked[line] = value;
    return value;
  }

  /** Drops one entry (e.g. a miss that must not be remembered). */
  forget(key: string): void {
    const slot = this.entries.find(key);
    if (slot >= 0) this.entries.remove(slot);
  }

  clear(): void {
    this.entries.clear();
    this.unpackedFrom.fill(undefined);
    this.unpacked.fill(undefined);
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
    const slot = this.entries.find(key);
    return slot >= 0 && this.entries.settled(slot) ? this.valueAt(slot) : NOT_CACHED;
  }

  private onChange(event: ChangeEvent): void {
    const relevant = event.tenantId === '*' || event.kind === 'tenant' || this.options.kinds.includes(event.kind);
    if (!relevant) return;
    this.changes++;
    if (event.tenantId === '*') return this.clear();
    if (this.options.dropAllOnChange) return this.clear();
    const only = event.kind === 'tenant' || event.id === '*' ? null : (this.options.keyOf?.(event) ?? null);
    if (only !== null) {
      const slot = this.entries.find(only);
      if (slot >= 0 && this.entries.tenantOf(slot) === event.tenantId) this.entries.remove(slot);
      return;
    }
    const everyKey = event.kind === 'tenant' || event.id === '*' || !this.options.matches;
    this.entries.removeWhere(
      (key, tenantId) => tenantId === event.tenantId && (everyKey || this.options.matches!(key, event)),
    );
  }
}
