import { type ProfileWindow, monotonicMicros } from './cpu-profile.js';
import autocannon, { type AutocannonResult } from 'autocannon';
import { type AssertionAlgorithm, type BenchCertificate, assertionBodies, signAhead } from './assertion-signer.js';
import {
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

export interface AssertionRun {
  tokensPerSec: number;
  /** ÷ the secret's tokens/s on the same server, just before. */
  ratio: number;
  cpuUsPerToken: number;
  /** The same ratio from server CPU per token (secret ÷ assertion). */
  ratioByCpu: number;
}

export interface AssertionFigures {
  secretTokensPerSec: number;
  cpuUsPerTokenSecret: number;
  /** PS256 with an RSA-2048 certificate, as MSAL Node and @azure/identity send them (target ≥ 0.5). */
  assertionTokensPerSec: number;
  ratio: number;
  cpuUsPerTokenAssertion: number;
  ratioByCpu: number;
  /** Each algorithm against the same secret run; ES256 costs a P-256 verification (three signatures). */
  byAlgorithm: Record<AssertionAlgorithm, AssertionRun>;
  /** When each measured run went on (for a CPU profile of the server); not in the report. */
  windows?: Record<AssertionPhase, ProfileWindow>;
}

export type AssertionPhase = 'secret' | AssertionAlgorithm;

/** Bodies handed out once each, then signed on demand if the server goes faster than expected. */
export function presignedBodies(pool: string[], next: () => string): () => string {
  return () => pool.pop() ?? next();
}

/** Assertions signed ahead: enough for 0.75× the secret run's rate over warm-up and run, at most 250,000. */
function presignedCount(secretRun: AutocannonResult): number {
  const seconds = (smoke ? 0 : settings.warmupSeconds) + settings.durationSeconds;
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
 * Secret-authenticated tokens, then assertion-authenticated ones (PS256, then ES256) on one fresh
 * Gatehouse server (its current algorithm), each after a warm-up, with replay protection on (every
 * assertion's jti is spent in Postgres). The assertions are signed ahead on worker threads, before
 * each phase starts: a real client signs on its own machine.
 */
export async function measureAssertions(
  target: Target,
  certificates: Record<AssertionAlgorithm, BenchCertificate>,
  clientId: string,
  secretBody: string,
  nodeArgs: string[] = [],
): Promise<AssertionFigures> {
  const server = await startServer(target, nodeArgs);
  try {
    await verifyOneToken(target, server, 'ES256');
    const url = server.url + target.tokenPath;
    const phases: AssertionPhase[] = ['secret', 'PS256', 'ES256'];
    const windows = Object.fromEntries(phases.map((p) => [p, { fromUs: 0, toUs: 0 }])) as AssertionFigures['windows'] & {};
    const measured = {} as Record<AssertionPhase, { result: AutocannonResult; cpuUs: number }>;
    for (const phase of phases) {
      let body = () => secretBody;
      if (phase !== 'secret') {
        const job = { clientId, audience: url, certificate: certificates[phase] };
        body = presignedBodies(await signAhead(job, presignedCount(measured.secret.result)), assertionBodies(clientId, url, job.certificate));
      }
      if (!smoke) await run(url, settings.warmupSeconds, body); // smoke: the pipeline, not the figure
      const before = cpuSeconds(server.pid);
      windows[phase].fromUs = monotonicMicros();
      const result = await run(url, settings.durationSeconds, body);
      windows[phase].toUs = monotonicMicros();
      const cpuUs = round(((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, result['2xx']), 0);
      measured[phase] = { result, cpuUs };
    }
    const rate = (r: AutocannonResult) => round(r['2xx'] / r.duration, 0);
    const secret = measured.secret;
    const byAlgorithm = {} as Record<AssertionAlgorithm, AssertionRun>;
    for (const alg of ['PS256', 'ES256'] as const) {
      const { result, cpuUs } = measured[alg];
      byAlgorithm[alg] = {
        tokensPerSec: rate(result),
        ratio: round(rate(result) / Math.max(1, rate(secret.result)), 3),
        cpuUsPerToken: cpuUs,
        ratioByCpu: round(secret.cpuUs / Math.max(1, cpuUs), 3),
      };
    }
    const headline = byAlgorithm.PS256;
    return {
      secretTokensPerSec: rate(secret.result),
      cpuUsPerTokenSecret: secret.cpuUs,
      assertionTokensPerSec: headline.tokensPerSec,
      ratio: headline.ratio,
      cpuUsPerTokenAssertion: headline.cpuUsPerToken,
      ratioByCpu: headline.ratioByCpu,
      byAlgorithm,
      windows,
    };
  } finally {
    await stopServer(server);
  }
}
