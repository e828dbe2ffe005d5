// Client assertions as a daemon makes them: a fresh jti each, signed with the client's certificate
// key (PS256 with RSA, as MSAL Node and @azure/identity do; ES256 with EC P-256). Signed ahead on
// worker threads, so that the load generator spends no CPU on them while the server is measured.
import { constants, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { API_IDENTIFIER } from './protocol.js';

export type AssertionAlgorithm = 'PS256' | 'ES256';

export interface BenchCertificate {
  alg: AssertionAlgorithm;
  privateKeyPem: string;
  x5tS256: string;
}

interface SignerJob {
  clientId: string;
  audience: string;
  certificate: BenchCertificate;
  count: number;
}

/** A form body with a fresh client assertion (new jti, valid 5 minutes) on every call. */
export function assertionBodies(clientId: string, audience: string, certificate: BenchCertificate): () => string {
  const privateKey = createPrivateKey(certificate.privateKeyPem);
  const key =
    certificate.alg === 'PS256'
      ? { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
      : { key: privateKey, dsaEncoding: 'ieee-p1363' as const };
  const header = { alg: certificate.alg, typ: 'JWT', 'x5t#S256': certificate.x5tS256 };
  const encodedHeader = Buffer.from(JSON.stringify(header)).toString('base64url');
  return () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: clientId, sub: clientId, aud: audience, iat: now, nbf: now, exp: now + 300, jti: randomUUID() };
    const input = `${encodedHeader}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
    const assertion = `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
    return new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
      scope: `${API_IDENTIFIER}/.default`,
    }).toString();
  };
}

/** `count` bodies signed on `threads` worker threads (an RSA-2048 signature costs ≈ 250 µs). */
export async function signAhead(job: Omit<SignerJob, 'count'>, count: number, threads = 2): Promise<string[]> {
  const shares = Array.from({ length: threads }, (_, i) => Math.floor(count / threads) + (i < count % threads ? 1 : 0));
  const parts = await Promise.all(
    shares.map(
      (share) =>
        new Promise<string[]>((resolve, reject) => {
          const worker = new Worker(new URL(import.meta.url), { workerData: { ...job, count: share } });
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    ),
  );
  return parts.flat();
}

if (!isMainThread && parentPort) {
  const job = workerData as SignerJob;
  const next = assertionBodies(job.clientId, job.audience, job.certificate);
  parentPort.postMessage(Array.from({ length: job.count }, next));
}
