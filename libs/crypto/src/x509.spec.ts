import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificatePem, selfSignedCertificate } from './x509.js';

describe('selfSignedCertificate', () => {
  for (const [type, options] of [
    ['rsa', { modulusLength: 2048 }],
    ['ec', { namedCurve: 'P-256' }],
  ] as const) {
    it(`${type}: Node's X509Certificate reads it, and it verifies with its own key`, () => {
      const { privateKey, publicKey } = generateKeyPairSync(type as 'rsa', options as { modulusLength: number });
      const notBefore = new Date('2026-01-01T00:00:00Z');
      const notAfter = new Date('2051-01-01T00:00:00Z');
      const cert = new X509Certificate(
        certificatePem(
          selfSignedCertificate(privateKey, {
            commonName: 'localhost',
            notBefore,
            notAfter,
            altNames: ['localhost', '127.0.0.1', '::1'],
            ca: true,
          }),
        ),
      );
      expect(cert.subject).toBe('CN=localhost');
      expect(cert.issuer).toBe('CN=localhost');
      expect(new Date(cert.validFrom).getTime()).toBe(notBefore.getTime());
      expect(new Date(cert.validTo).getTime()).toBe(notAfter.getTime());
      expect(cert.ca).toBe(true);
      expect(cert.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
      expect(cert.checkHost('localhost')).toBe('localhost');
      expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(cert.verify(publicKey)).toBe(true);
      expect(cert.publicKey.export({ format: 'jwk' })).toEqual(publicKey.export({ format: 'jwk' }));
    });
  }
});
