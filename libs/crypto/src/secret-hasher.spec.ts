import { describe, expect, it } from 'vitest';
import { KeyEncryptor } from './key-encryptor.js';
import { SecretHasher, generateOpaqueSecret } from './secret-hasher.js';

describe('SecretHasher', () => {
  const hasher = new SecretHasher(Buffer.alloc(32, 7));

  it('generates 256-bit secrets that differ every time', () => {
    const a = generateOpaqueSecret();
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toEqual(generateOpaqueSecret());
  });

  it('matches only the secret that was hashed, under the same pepper', () => {
    const secret = generateOpaqueSecret();
    const stored = hasher.hash(secret);
    expect(hasher.matches(secret, stored)).toBe(true);
    expect(hasher.matches(`${secret}x`, stored)).toBe(false);
    expect(new SecretHasher(Buffer.alloc(32, 8)).matches(secret, stored)).toBe(false);
    expect(hasher.matches(secret, Buffer.alloc(3))).toBe(false);
  });
});

describe('KeyEncryptor', () => {
  it('round-trips and refuses tampering or another context', () => {
    const encryptor = new KeyEncryptor(Buffer.alloc(32, 1));
    const sealed = encryptor.encrypt(Buffer.from('private'), 'kid-1');
    expect(encryptor.decrypt(sealed, 'kid-1').toString()).toBe('private');
    expect(() => encryptor.decrypt(sealed, 'kid-2')).toThrow();
    sealed[sealed.length - 1] ^= 1;
    expect(() => encryptor.decrypt(sealed, 'kid-1')).toThrow();
  });
});
