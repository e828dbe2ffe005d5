import { type KeyObject, X509Certificate, createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { certificatePem, selfSignedCertificate } from '@gatehouse/crypto';
import { generate } from 'selfsigned';

/** A client's certificate and private key, as a team would make one with openssl. */
export interface ClientCertificate {
  pem: string;
  privateKey: KeyObject;
  privateKeyPem: string;
  der: Buffer;
  /** SHA-1 / SHA-256 of the DER in hex (what MSAL and @azure/identity take) and base64url (the JOSE headers). */
  sha1Hex: string;
  sha256Hex: string;
  x5t: string;
  x5tS256: string;
}

export function makeCertificate(
  options: { type?: 'rsa' | 'ec'; bits?: number; notAfter?: Date; notBefore?: Date; name?: string } = {},
): ClientCertificate {
  const { privateKey } =
    options.type === 'ec'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('rsa', { modulusLength: options.bits ?? 2048 });
  const der = selfSignedCertificate(privateKey, {
    commonName: options.name ?? 'daemon.example.com',
    notBefore: options.notBefore ?? new Date(Date.now() - 3_600_000),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * 86_400_000),
  });
  const sha1 = createHash('sha1').update(der).digest();
  const sha256 = createHash('sha256').update(der).digest();
  return {
    pem: certificatePem(der),
    privateKey,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    der,
    sha1Hex: sha1.toString('hex').toUpperCase(),
    sha256Hex: sha256.toString('hex').toUpperCase(),
    x5t: sha1.toString('base64url'),
    x5tS256: sha256.toString('base64url'),
  };
}

export function thumbprintOf(pem: string): string {
  return new X509Certificate(pem).fingerprint.replace(/:/g, '');
}

/** A hand-made RFC 7523 client assertion; every part can be overridden to make a bad one. */
export async function makeAssertion(
  certificate: ClientCertificate,
  options: {
    clientId: string;
    audience: string;
    alg?: 'RS256' | 'PS256' | 'ES256';
    header?: Record<string, unknown>;
    claims?: Record<string, unknown>;
    issuedSecondsAgo?: number;
    lifetimeSeconds?: number;
    jti?: string | null;
  },
): Promise<string> {
  const now = Math.floor(Date.now() / 1000) - (options.issuedSecondsAgo ?? 0);
  const claims: Record<string, unknown> = {
    iss: options.clientId,
    sub: options.clientId,
    aud: options.audience,
    iat: now,
    nbf: now,
    exp: now + (options.lifetimeSeconds ?? 300),
    ...(options.jti === null ? {} : { jti: options.jti ?? randomUUID() }),
    ...options.claims,
  };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'RS256', typ: 'JWT', x5t: certificate.x5t, ...options.header })
    .sign(certificate.privateKey);
}

/** A self-signed TLS certificate for localhost and 127.0.0.1 (the server side of the https tests). */
export async function tlsCertificate(): Promise<{ cert: string; key: string }> {
  const generated = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  return { cert: generated.cert, key: generated.private };
}

/**
 * Makes this test process's `fetch` (Node's undici, which MSAL, @azure/identity, openid-client and
 * jose all use) trust `ca`, by replacing undici's global dispatcher (see real-clients.e2e-spec.ts).
 */
export async function trustOnly(ca: string): Promise<() => void> {
  const slotName = Symbol.for('undici.globalDispatcher.1');
  await fetch('data:,');
  const slot = globalThis as unknown as Record<symbol, unknown>;
  const original = slot[slotName] as { constructor: new (options: object) => unknown };
  slot[slotName] = new original.constructor({ connect: { ca: [ca] } });
  return () => {
    slot[slotName] = original;
  };
}
