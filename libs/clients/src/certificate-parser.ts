import { X509Certificate, createHash } from 'node:crypto';
import { ClientError, ClientErrorCode } from './client.errors.js';

/** What is kept of an uploaded certificate. */
export interface ParsedCertificate {
  der: Buffer;
  thumbprint: string;
  x5t: string;
  x5tS256: string;
  subject: string;
  notBefore: Date;
  notAfter: Date;
}

const PEM = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----/g;
const invalid = (message: string) => new ClientError(ClientErrorCode.InvalidCertificate, message);

/**
 * One X.509 certificate in PEM (or bare base64 DER, as a .cer file holds it). Accepted keys: RSA of
 * 2048 bits or more, EC P-256. Refused: a private key anywhere in the text (it must never leave
 * its owner), several certificates, an expired one.
 */
export function parseCertificate(text: string, now = new Date()): ParsedCertificate {
  if (/PRIVATE KEY/.test(text)) {
    throw invalid('The text contains a private key. Upload only the certificate (the public part); keep the key where it is.');
  }
  const blocks = [...text.matchAll(PEM)];
  if (blocks.length > 1) throw invalid('Upload exactly one certificate, not a chain.');
  const base64 = (blocks[0]?.[1] ?? text).replace(/\s+/g, '');
  let certificate: X509Certificate;
  try {
    if (!/^[A-Za-z0-9+/]+=*$/.test(base64)) throw new Error('not base64');
    certificate = new X509Certificate(Buffer.from(base64, 'base64'));
  } catch {
    throw invalid('The certificate is not a valid X.509 certificate in PEM.');
  }
  const key = certificate.publicKey;
  const details = key.asymmetricKeyDetails ?? {};
  const rsa = key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048;
  const p256 = key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1';
  if (!rsa && !p256) throw invalid('The certificate key must be RSA of at least 2048 bits or EC P-256.');
  const notBefore = new Date(certificate.validFrom);
  const notAfter = new Date(certificate.validTo);
  if (notAfter.getTime() <= now.getTime()) {
    throw new ClientError(ClientErrorCode.CertificateExpired, `The certificate expired at ${notAfter.toISOString()}.`);
  }
  const der = certificate.raw;
  const sha1 = createHash('sha1').update(der).digest();
  return {
    der,
    thumbprint: sha1.toString('hex').toUpperCase(),
    x5t: sha1.toString('base64url'),
    x5tS256: createHash('sha256').update(der).digest('base64url'),
    subject: certificate.subject.replace(/\n/g, ', '),
    notBefore,
    notAfter,
  };
}
