import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { certificatePem, selfSignedCertificate } from '@gatehouse/crypto';

export interface DevTlsFiles {
  certFile: string;
  keyFile: string;
}

const RENEW_BEFORE_MS = 30 * 86_400_000;

/**
 * `DEV_TLS=1`: a development certificate for localhost, 127.0.0.1 and ::1 under
 * `DATA_DIR/dev-tls`, made once (again when it is due to expire within 30 days). It is its own CA,
 * so a client trusts it with `NODE_EXTRA_CA_CERTS` (Node), `REQUESTS_CA_BUNDLE` (Python) or the
 * system store. Development only: production configures TLS_CERT_FILE and TLS_KEY_FILE.
 */
export function ensureDevCertificate(dataDir: string): DevTlsFiles {
  const dir = join(dataDir, 'dev-tls');
  const files = { certFile: join(dir, 'certificate.pem'), keyFile: join(dir, 'key.pem') };
  if (existsSync(files.certFile) && existsSync(files.keyFile)) {
    const validTo = new Date(new X509Certificate(readFileSync(files.certFile)).validTo).getTime();
    if (validTo - Date.now() > RENEW_BEFORE_MS) return files;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const now = Date.now();
  const der = selfSignedCertificate(privateKey, {
    commonName: 'Gatehouse development (localhost)',
    notBefore: new Date(now - 3_600_000),
    notAfter: new Date(now + 365 * 86_400_000),
    altNames: ['localhost', '127.0.0.1', '::1'],
    ca: true,
  });
  writeFileSync(files.keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  chmodSync(files.keyFile, 0o600);
  writeFileSync(files.certFile, certificatePem(der));
  return files;
}

/** What `npm start` prints with DEV_TLS=1: the exact line that makes Node clients (MSAL, @azure/identity) trust it. */
export function devTlsNotice(dataDir: string): string {
  const { certFile } = ensureDevCertificate(dataDir);
  return (
    `Development https: the certificate is ${certFile}. Run clients on this machine with\n` +
    `  NODE_EXTRA_CA_CERTS=${certFile}\n` +
    `(Python: REQUESTS_CA_BUNDLE=${certFile}; curl: --cacert ${certFile})\n`
  );
}
