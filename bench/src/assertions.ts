import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { type ProfileWindow, monotonicMicros } from './cpu-profile.js';
import autocannon, { type AutocannonResult } from 'autocannon';
import {
  type BenchCertificate,
  type Target,
  cpuSeconds,
  failures,
  round,
  settings,
  smoke,
  startServer,
  stopServer,
  verifyOneToken,
} from './harness.js';
import { API_IDENTIFIER } from './protocol.js';

export interface AssertionFigures {
  secretTokensPerSec: number;
  assertionTokensPerSec: number;
  /** assertion ÷ secret tokens/s on the same server, one after the other (target ≥ 0.5). */
  ratio: number;
  cpuUsPerTokenSecret: number;
  cpuUsPerTokenAssertion: number;
  /** The same ratio from server CPU per token: not limited by the load generator, which signs every assertion. */
  ratioByCpu: number;
  /** When each measured run went on (for a CPU profile of the server); not in the report. */
  windows?: Record<'secret' | 'assertion', ProfileWindow>;
}

/** A form body with a fresh ES256 client assertion (new jti) for every request, as MSAL sends them. */
export function assertionBodies(clientId: string, audience: string, certificate: BenchCertificate): () => string {
  const key = { key: createPrivateKey(certificate.privateKeyPem), dsaEncoding: 'ieee-p1363' as const };
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JWT', 'x5t#S256': certificate.x5tS256 })).toString(
    'base64url',
  );
  return () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: clientId,
      sub: clientId,
      aud: audience,
      iat: now,
      nbf: now,
      exp: now + 300,
      jti: randomUUID(),
    };
    const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
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

/**
 * `count` bodies signed ahead (each its own jti, valid 5 minutes), handed out once each; signed on
 * demand when they run out. Real clients sign on their own machines: signing ahead keeps the load
 * generator's signing off this machine's two cores while the server is measured.
 */
export function presignedBodies(next: () => string, count: number): () => string {
  const pool = Array.from({ length: count }, next);
  return () => pool.pop() ?? next();
}

/** Assertions signed ahead: enough for 0.75× the secret run's rate over warm-up and run, at most 250,000. */
function presignedCount(secretRun: AutocannonResult): number {
  const seconds = settings.warmupSeconds + settings.durationSeconds;
  return Math.min(250_000, Math.ceil((secretRun['2xx'] / secretRun.duration) * seconds * 0.75));
}

async function run(url: string, seconds: number, body: () => string): Promise<AutocannonResult> {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    connections: settings.connections,
    duration: seconds,
    timeout: 10,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: body() }) }],
  });
  if (result.non2xx + result.errors + result.timeouts > 0 || result['2xx'] === 0) {
    failures.push(
      `gatehouse assertions: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return result;
}

/**
 * Secret-authenticated and then assertion-authenticated tokens on one fresh Gatehouse server (its
 * current algorithm), each after a warm-up, with replay protection on (every assertion's jti is
 * spent in Postgres). The generator signs every assertion itself, so tokens/s may be bounded by it;
 * CPU per token on the server is not.
 */
export async function measureAssertions(
  target: Target,
  certificate: BenchCertificate,
  clientId: string,
  secretBody: string,
  nodeArgs: string[] = [],
): Promise<AssertionFigures> {
  const server = await startServer(target, nodeArgs);
  try {
    await verifyOneToken(target, server, 'ES256');
    const url = server.url + target.tokenPath;
    const signer = assertionBodies(clientId, url, certificate);
    const windows = { secret: { fromUs: 0, toUs: 0 }, assertion: { fromUs: 0, toUs: 0 } };
    const measured: Array<{ result: AutocannonResult; cpuUs: number }> = [];
    for (const phase of ['secret', 'assertion'] as const) {
      const body = phase === 'secret' ? () => secretBody : presignedBodies(signer, presignedCount(measured[0]!.result));
      if (!smoke) await run(url, settings.warmupSeconds, body); // smoke: the pipeline, not the figure
      const before = cpuSeconds(server.pid);
      windows[phase].fromUs = monotonicMicros();
      const result = await run(url, settings.durationSeconds, body);
      windows[phase].toUs = monotonicMicros();
      measured.push({
        result,
        cpuUs: round(((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, result['2xx']), 0),
      });
    }
    const [secret, signed] = measured as [(typeof measured)[0], (typeof measured)[0]];
    const rate = (r: AutocannonResult) => round(r['2xx'] / r.duration, 0);
    return {
      secretTokensPerSec: rate(secret.result),
      assertionTokensPerSec: rate(signed.result),
      ratio: round(rate(signed.result) / Math.max(1, rate(secret.result)), 3),
      cpuUsPerTokenSecret: secret.cpuUs,
      cpuUsPerTokenAssertion: signed.cpuUs,
      ratioByCpu: round(secret.cpuUs / Math.max(1, signed.cpuUs), 3),
      windows,
    };
  } finally {
    await stopServer(server);
  }
}
