import { generateKeyPairSync, sign } from 'node:crypto';
import { derToJose } from 'ecdsa-sig-formatter';
import { describe, expect, it } from 'vitest';
import { CONVERT_DER, verifyEs256 } from './ecdsa-encoding.js';

// CI runs the suite on Node 24 (signatures converted in JavaScript) and on Node 20 (by OpenSSL):
// each run checks its own path against the other encoding.
describe(`ES256 signatures (${CONVERT_DER ? 'converted from DER' : "OpenSSL's ieee-p1363"} on Node ${process.versions.node})`, () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey;
  const data = Buffer.from('eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0');

  it('a JOSE signature made by OpenSSL verifies, and one converted from DER is the same kind', () => {
    const jose = sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
    expect(jose).toHaveLength(64);
    expect(verifyEs256(data, publicKey, jose)).toBe(true);
    const converted = Buffer.from(derToJose(sign('sha256', data, privateKey), 'ES256'), 'base64url');
    expect(converted).toHaveLength(64);
    expect(verifyEs256(data, publicKey, converted)).toBe(true);
  });

  it('refuses another key, other data and a changed signature', () => {
    const jose = sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' });
    expect(verifyEs256(data, other, jose)).toBe(false);
    expect(verifyEs256(Buffer.from('other'), publicKey, jose)).toBe(false);
    const changed = Buffer.from(jose);
    changed[10] = changed[10]! ^ 1;
    expect(verifyEs256(data, publicKey, changed)).toBe(false);
  });
});
