import { describe, expect, it } from 'vitest';
import type { ChangeEvent, ChangeListener } from '@gatehouse/database';
import { ChangeAwareCache, type ChangeAwareCacheOptions, NOT_CACHED } from './change-aware-cache.js';

class FakeListener {
  connected = true;
  outage = false;
  reportUnreachable() {
    if (!this.connected) this.outage = true;
  }
  servesHeldEntries(graceMs: number) {
    return graceMs > 0 && !this.connected && this.outage;
  }
  private readonly subscribers: Array<(event: ChangeEvent) => void> = [];
  subscribe(fn: (event: ChangeEvent) => void) {
    this.subscribers.push(fn);
    return () => undefined;
  }
  emit(event: ChangeEvent) {
    for (const fn of this.subscribers) fn(event);
  }
}

function setup(options: Partial<ChangeAwareCacheOptions<number>> = {}) {
  const listener = new FakeListener();
  const cache = new ChangeAwareCache<number>(listener as unknown as ChangeListener, {
    kinds: ['client'],
    ttlMs: 60_000,
    matches: (key, event) => key.endsWith(`|${event.id}`),
    ...options,
  });
  let loads = 0;
  const load = () => Promise.resolve(++loads);
  return { listener, cache, load, loads: () => loads };
}

describe('ChangeAwareCache', () => {
  it('serves from memory until a matching change drops the entry', async () => {
    const { listener, cache, load, loads } = setup();
    expect(await cache.get('t1|a', 't1', load)).toBe(1);
    expect(await cache.get('t1|a', 't1', load)).toBe(1);
    listener.emit({ kind: 'client', tenantId: 't1', id: 'b' });
    expect(await cache.get('t1|a', 't1', load)).toBe(1);
    listener.emit({ kind: 'client', tenantId: 't1', id: 'a' });
    expect(await cache.get('t1|a', 't1', load)).toBe(2);
    expect(loads()).toBe(2);
  });

  it('a tenant event drops the tenant; "*" drops everything; other kinds are ignored', async () => {
    const { listener, cache, load } = setup();
    await cache.get('t1|a', 't1', load);
    await cache.get('t2|a', 't2', load);
    listener.emit({ kind: 'keys', tenantId: 't1', id: '*' });
    expect(await cache.get('t1|a', 't1', load)).toBe(1);
    listener.emit({ kind: 'tenant', tenantId: 't1', id: '*' });
    expect(await cache.get('t1|a', 't1', load)).toBe(3);
    expect(await cache.get('t2|a', 't2', load)).toBe(2);
    listener.emit({ kind: 'tenant', tenantId: '*', id: '*' });
    expect(await cache.get('t2|a', 't2', load)).toBe(4);
  });

  it('is bypassed while the listener is disconnected', async () => {
    const { listener, cache, load } = setup();
    await cache.get('t1|a', 't1', load);
    listener.connected = false;
    expect(await cache.get('t1|a', 't1', load)).toBe(2);
    expect(await cache.get('t1|a', 't1', load)).toBe(3);
  });

  it('a change during a load drops that load', async () => {
    const { listener, cache } = setup();
    let release: (value: number) => void = () => undefined;
    const pending = cache.get('t1|a', 't1', () => new Promise<number>((resolve) => (release = resolve)));
    listener.emit({ kind: 'client', tenantId: 't1', id: 'a' });
    release(1);
    expect(await pending).toBe(1);
    expect(await cache.get('t1|a', 't1', () => Promise.resolve(2))).toBe(2);
  });

  it('forgets failed loads', async () => {
    const { cache } = setup();
    await expect(cache.get('t1|a', 't1', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(await cache.get('t1|a', 't1', () => Promise.resolve(7))).toBe(7);
  });

  it('peek answers a loaded value without a promise, and only while get would serve it from memory', async () => {
    const { listener, cache } = setup();
    let release: (value: number) => void = () => undefined;
    const pending = cache.get('t1|a', 't1', () => new Promise<number>((resolve) => (release = resolve)));
    expect(cache.peek('t1|a')).toBe(NOT_CACHED);
    release(5);
    await pending;
    expect(cache.peek('t1|a')).toBe(5);
    listener.connected = false;
    expect(cache.peek('t1|a')).toBe(NOT_CACHED);
    listener.connected = true;
    listener.emit({ kind: 'client', tenantId: 't1', id: 'a' });
    expect(cache.peek('t1|a')).toBe(NOT_CACHED);
  });

  it('peek never answers a failed load, an expired entry or one loaded before a change', async () => {
    const { listener, cache } = setup({ ttlMs: 20 });
    await expect(cache.get('t1|a', 't1', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    expect(cache.peek('t1|a')).toBe(NOT_CACHED);
    await cache.get('t1|b', 't1', () => Promise.resolve(1));
    expect(cache.peek('t1|b')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(cache.peek('t1|b')).toBe(NOT_CACHED);
    let release: (value: number) => void = () => undefined;
    const pending = cache.get('t1|c', 't1', () => new Promise<number>((resolve) => (release = resolve)));
    listener.emit({ kind: 'client', tenantId: 't1', id: 'c' });
    release(2);
    await pending;
    expect(cache.peek('t1|c')).toBe(NOT_CACHED);
  });

  it('through a confirmed database outage, held entries are served (also by peek) only with a grace period', async () => {
    const unavailable = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    for (const outageGraceMs of [0, 60_000]) {
      const { listener, cache, load } = setup({ outageGraceMs, ttlMs: 1 });
      await cache.get('t1|a', 't1', load);
      await new Promise((resolve) => setTimeout(resolve, 5)); // expired by TTL: an outage serves it all the same
      listener.connected = false;
      expect(cache.peek('t1|a')).toBe(NOT_CACHED); // disconnected is not yet an outage
      const first = cache.get('t1|a', 't1', unavailable);
      if (outageGraceMs === 0) {
        await expect(first).rejects.toThrow('ECONNREFUSED');
        expect(cache.peek('t1|a')).toBe(NOT_CACHED);
        continue;
      }
      expect(await first).toBe(1);
      expect(cache.peek('t1|a')).toBe(1);
      await expect(cache.get('t1|b', 't1', unavailable)).rejects.toThrow('ECONNREFUSED');
      await expect(cache.get('t1|c', 't1', () => Promise.reject(new Error('syntax error')))).rejects.toThrow('syntax');
      listener.connected = true;
      listener.outage = false;
      listener.emit({ kind: 'tenant', tenantId: '*', id: '*' });
      expect(cache.peek('t1|a')).toBe(NOT_CACHED);
    }
  });

  it('a remembered value can be peeked', () => {
    const { cache } = setup();
    cache.remember('t1|a', 't1', 9, cache.version);
    expect(cache.peek('t1|a')).toBe(9);
  });

  it('holds at most maxEntries, evicting the least recently read first', async () => {
    const { cache } = setup({ maxEntries: 3 });
    for (const key of ['t1|a', 't1|b', 't1|c']) await cache.get(key, 't1', () => Promise.resolve(1));
    expect(cache.peek('t1|a')).toBe(1); // read: survives the next eviction
    await cache.get('t1|d', 't1', () => Promise.resolve(1));
    expect(cache.size).toBe(3);
    expect(cache.peek('t1|b')).toBe(NOT_CACHED); // the oldest not read since
    expect(cache.peek('t1|a')).toBe(1);
    for (let i = 0; i < 1000; i++) cache.remember(`t2|${i}`, 't2', i, cache.version);
    expect(cache.size).toBe(3);
    expect(cache.peek('t2|999')).toBe(999);
    expect(cache.peek('t2|996')).toBe(NOT_CACHED);
  });

  it('a full cache of one tenant still drops what a change names, by key or by scan', async () => {
    const { listener, cache, load } = setup({
      maxEntries: 100,
      keyOf: (event) => (event.kind === 'client' ? `${event.tenantId}|${event.id}` : null),
    });
    for (let i = 0; i < 250; i++) await cache.get(`t1|${i}`, 't1', load);
    expect(cache.size).toBe(100);
    expect(cache.peek('t1|249')).toBe(250);
    listener.emit({ kind: 'client', tenantId: 't1', id: '249' });
    expect(cache.peek('t1|249')).toBe(NOT_CACHED);
    expect(cache.peek('t1|248')).toBe(249);
    listener.emit({ kind: 'client', tenantId: 't2', id: '248' }); // another tenant's client of the same id
    expect(cache.peek('t1|248')).toBe(249);
    listener.emit({ kind: 'client', tenantId: 't1', id: '*' });
    expect(cache.size).toBe(0);
    expect(await cache.get('t1|248', 't1', load)).toBe(251);
  });

  it('an entry evicted while it loads is not stored, and its caller still gets the value', async () => {
    const { cache } = setup({ maxEntries: 1 });
    let release: (value: number) => void = () => undefined;
    const pending = cache.get('t1|a', 't1', () => new Promise<number>((resolve) => (release = resolve)));
    await cache.get('t1|b', 't1', () => Promise.resolve(2));
    release(1);
    expect(await pending).toBe(1);
    expect(cache.peek('t1|a')).toBe(NOT_CACHED);
    expect(cache.peek('t1|b')).toBe(2);
  });

  it('with a doorkeeper, a full cache stores a new key only on its second request; a round robin over more keys leaves it as it is', async () => {
    const { cache, load, loads } = setup({ maxEntries: 3, doorkeeper: true });
    for (const key of ['t1|a', 't1|b', 't1|c']) await cache.get(key, 't1', load); // not full yet: stored at once
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < 10; i++) expect(await cache.get(`t1|x${i}`, 't1', load)).toBeGreaterThan(3);
    expect(cache.size).toBe(3);
    expect(loads()).toBe(33); // every one of them read each time: served, not stored
    expect([cache.peek('t1|a'), cache.peek('t1|b'), cache.peek('t1|c')]).toEqual([1, 2, 3]);
    // (the round robin above cleared the doorkeeper in turn: x9 was refused last)
    expect(await cache.get('t1|hot', 't1', load)).toBe(34);
    expect(cache.peek('t1|hot')).toBe(NOT_CACHED);
    expect(await cache.get('t1|hot', 't1', load)).toBe(35); // second request: admitted, evicting one
    expect(cache.peek('t1|hot')).toBe(35);
    expect(await cache.get('t1|hot', 't1', load)).toBe(35);
    expect(cache.size).toBe(3);
  });
});
