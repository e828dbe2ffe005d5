import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChangeEvent, ChangeListener } from '@gatehouse/database';
import { ChangeAwareCache, NOT_CACHED } from './change-aware-cache.js';
import type { ClientSnapshot } from './client-credentials.repository.js';
import { SnapshotCodec } from './snapshot-codec.js';

const grants = new Map([[randomUUID(), ['orders.read', 'orders.write']]]);

function snapshot(overrides: Partial<ClientSnapshot['client']> = {}, secrets = 1): ClientSnapshot {
  return {
    client: {
      id: randomUUID(),
      clientId: randomUUID(),
      state: 'active',
      ownerUserId: randomUUID(),
      ownerStatus: 'active',
      ownerRoles: ['ContactPerson', 'Auditor'],
      ...overrides,
    },
    secrets: Array.from({ length: secrets }, (_, i) => ({
      hash: randomBytes(32).toString('latin1'),
      expiresAtMs: Date.now() + (i - 1) * 86_400_000,
    })),
    certificates: [],
    grants,
    limits: null,
  };
}

describe('SnapshotCodec', () => {
  it('packs a snapshot into one string and unpacks what was packed', () => {
    const codec = new SnapshotCodec();
    const cases = [
      snapshot(),
      snapshot({ ownerUserId: null, ownerStatus: null, ownerRoles: [] }, 0),
      snapshot({ state: 'awaiting_scopes', ownerStatus: 'disabled' }, 3),
      snapshot({ state: 'disabled' }, 2),
    ];
    cases[3]!.secrets[0]!.hash = '\0\xff'.repeat(16); // every byte value survives
    for (const original of cases) {
      const packed = codec.pack(original);
      expect(typeof packed).toBe('string');
      const unpacked = codec.unpack(packed)!;
      expect(unpacked).toEqual(original);
      expect(unpacked.grants).toBe(original.grants); // shared, not copied
    }
  });

  it('keeps what it cannot pack as it is: null, certificates, over-long ids', () => {
    const codec = new SnapshotCodec();
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const withCertificate = snapshot();
    withCertificate.certificates = [
      { keyId: 'k', thumbprint: 'T', x5t: 'x', x5tS256: 'y', notBefore: new Date(), notAfter: new Date(), key: publicKey },
    ];
    const longId = snapshot({ clientId: 'x'.repeat(300) });
    for (const value of [null, withCertificate, longId]) expect(codec.unpack(codec.pack(value))).toBe(value);
  });

  it('in a cache: read unpacked, unpacked once while hot, and never stale after a change', async () => {
    let emit: (event: ChangeEvent) => void = () => undefined;
    const listener = {
      connected: true,
      subscribe: (fn: (event: ChangeEvent) => void) => (emit = fn),
    } as unknown as ChangeListener;
    const cache = new ChangeAwareCache<ClientSnapshot | null>(listener, {
      kinds: ['client'],
      ttlMs: 60_000,
      keyOf: (event) => `${event.tenantId}|${event.id}`,
      codec: new SnapshotCodec(),
    });
    const first = snapshot();
    expect(await cache.get('t1|a', 't1', () => Promise.resolve(first))).toBe(first);
    const read = cache.peek('t1|a');
    expect(read).toEqual(first);
    expect(read).not.toBe(first); // stored packed
    expect(cache.peek('t1|a')).toBe(read); // the hot entry is not unpacked again
    emit({ kind: 'client', tenantId: 't1', id: 'a' });
    expect(cache.peek('t1|a')).toBe(NOT_CACHED);
    const second = snapshot({ state: 'disabled' });
    expect(await cache.get('t1|a', 't1', () => Promise.resolve(second))).toBe(second);
    expect(cache.peek('t1|a')).toEqual(second);
  });
});
