import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { compactVerify, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { constantClaimsJson, signAccessToken } from './compact-jws.js';
import type { Signer } from './signing-key.service.js';
import { newTokenId } from './token-id.js';

const constant = {
  iss: 'https://login.example.com/0b7f5a3e-0000-4000-8000-000000000001/v2.0',
  aud: '6f1d0c1e-0000-4000-8000-000000000002',
  sub: '6f1d0c1e-0000-4000-8000-000000000003',
  client_id: 'cl"ient\\ü',
  roles: ['Orders.Read', 'Orders.Write'],
  scope: 'Orders.Read Orders.Write',
  ver: '2.0',
};

function signers(): Signer[] {
  return [
    { alg: 'ES256', kid: 'k-es', key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey },
    { alg: 'RS256', kid: 'k-rs', key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey },
  ];
}

describe('signAccessToken', () => {
  for (const signer of signers()) {
    it(`${signer.alg}: the payload is the constant claims, then iat, nbf, exp, jti, uti, and the signature verifies`, async () => {
      const { jti, uti } = newTokenId();
      const token = signAccessToken(signer, constantClaimsJson(constant), {
        iat: 1_800_000_000,
        exp: 1_800_003_599,
        jti,
        uti,
      });
      expect(decodeProtectedHeader(token)).toEqual({ alg: signer.alg, kid: signer.kid, typ: 'JWT' });
      const { payload } = await compactVerify(token, createPublicKey(signer.key));
      const text = new TextDecoder().decode(payload);
      expect(text).toBe(
        JSON.stringify({ ...constant, iat: 1_800_000_000, nbf: 1_800_000_000, exp: 1_800_003_599, jti, uti }),
      );
      const rfc9068 = signAccessToken(signer, constantClaimsJson(constant), { iat: 1, exp: 2, jti, uti }, 'at+jwt');
      expect(decodeProtectedHeader(rfc9068)).toEqual({ alg: signer.alg, kid: signer.kid, typ: 'at+jwt' });
    });
  }

  it('works with no constant claims at all', () => {
    const [signer] = signers();
    const jti = '00000000-0000-4000-8000-000000000000';
    const token = signAccessToken(signer!, constantClaimsJson({}), { iat: 1, exp: 2, jti, uti: 'AAAAAAAAQACAAAAAAAAAAA' });
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as object;
    expect(payload).toEqual({ iat: 1, nbf: 1, exp: 2, jti, uti: 'AAAAAAAAQACAAAAAAAAAAA' });
  });
});
