import pg from 'pg';
import { BenchIssuer } from './federated-issuer.js';
import {
  type Provisioned,
  type RunningServer,
  type Target,
  cpuSeconds,
  load,
  median,
  round,
  settings,
  smoke,
  startServer,
  stopServer,
  verifyOneToken,
} from './harness.js';
import { API_IDENTIFIER, type Algorithm } from './protocol.js';

/** Federated assertions against secrets on one Gatehouse server (target: ≥ 0.5× the secret rate). */
export interface FederatedFigures {
  secretTokensPerSec: number;
  cpuUsPerTokenSecret: number;
  /** A Kubernetes-shaped token (RS256, an hour long) as client_assertion, the issuer's keys cached. */
  federatedTokensPerSec: number;
  cpuUsPerTokenFederated: number;
  ratio: number;
  ratioByCpu: number;
  /** Requests Gatehouse made to the issuer over the whole run: discovery and keys once. */
  issuerRequests: number;
}

const SUBJECT = 'system:serviceaccount:bench:orders-sync';

/** One line for the console, and the figures as they were. */
export function printFederated(figures: FederatedFigures): FederatedFigures {
  console.log(
    `  gatehouse federated assertions (issuer keys cached): ${figures.federatedTokensPerSec} tokens/s vs ${figures.secretTokensPerSec} with a secret ` +
      `(${figures.ratio}×; by CPU per token ${figures.ratioByCpu}×: ${figures.cpuUsPerTokenFederated} vs ${figures.cpuUsPerTokenSecret} µs; ` +
      `${figures.issuerRequests} requests to the issuer)`,
  );
  return figures;
}

/** The client's federated credential for the issuer, as the admin API stores it. */
async function trust(provisioned: Provisioned, issuer: string): Promise<void> {
  const client = new pg.Client({ connectionString: provisioned.databaseUrl });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO client_federated_credentials (tenant_id, api_client_id, name, issuer, subject, audiences)
       SELECT tenant_id, id, 'bench-cluster', $2, $3, ARRAY['api://AzureADTokenExchange'] FROM api_clients WHERE client_id = $1`,
      [provisioned.clientId, issuer, SUBJECT],
    );
  } finally {
    await client.end();
  }
}

async function sample(target: Target, server: RunningServer): Promise<{ tokensPerSec: number; cpuUs: number }> {
  const before = cpuSeconds(server.pid);
  const result = await load(target, server, settings.durationSeconds);
  return {
    tokensPerSec: round(result['2xx'] / result.duration, 0),
    cpuUs: round(((cpuSeconds(server.pid) - before) * 1e6) / Math.max(1, result['2xx']), 0),
  };
}

/**
 * Secret-authenticated tokens and federated ones on one fresh Gatehouse server, in alternating
 * rounds (a slow minute of the shared machine hits both), each after a warm-up. The federated
 * assertion is one projected token reused for every request, as a pod does until it is renewed:
 * after the first request the issuer's keys are cached and nothing leaves the server.
 */
export async function measureFederated(provisioned: Provisioned, gatehouse: Target, alg: Algorithm): Promise<FederatedFigures> {
  const issuer = await new BenchIssuer().start();
  try {
    await trust(provisioned, issuer.url);
    const target: Target = {
      ...gatehouse,
      env: { ...gatehouse.env, FEDERATION_PRIVATE_ISSUERS: new URL(issuer.url).origin, OUTBOUND_CA_FILE: issuer.caFile },
    };
    const federated: Target = {
      ...target,
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: provisioned.clientId,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await issuer.token(SUBJECT),
        scope: `${API_IDENTIFIER}/.default`,
      }).toString(),
    };
    const server = await startServer(target);
    try {
      await verifyOneToken(target, server, alg);
      await verifyOneToken(federated, server, alg);
      if (!smoke) for (const warm of [target, federated]) await load(warm, server, settings.warmupSeconds);
      const secrets: Array<{ tokensPerSec: number; cpuUs: number }> = [];
      const assertions: Array<{ tokensPerSec: number; cpuUs: number }> = [];
      for (let i = 0; i < settings.rounds; i++) {
        secrets.push(await sample(target, server));
        assertions.push(await sample(federated, server));
      }
      const secret = { tokensPerSec: median(secrets.map((s) => s.tokensPerSec)), cpuUs: median(secrets.map((s) => s.cpuUs)) };
      const fed = { tokensPerSec: median(assertions.map((s) => s.tokensPerSec)), cpuUs: median(assertions.map((s) => s.cpuUs)) };
      return {
        secretTokensPerSec: secret.tokensPerSec,
        cpuUsPerTokenSecret: secret.cpuUs,
        federatedTokensPerSec: fed.tokensPerSec,
        cpuUsPerTokenFederated: fed.cpuUs,
        ratio: round(fed.tokensPerSec / Math.max(1, secret.tokensPerSec), 3),
        ratioByCpu: round(secret.cpuUs / Math.max(1, fed.cpuUs), 3),
        issuerRequests: issuer.requests,
      };
    } finally {
      await stopServer(server);
    }
  } finally {
    await issuer.close();
  }
}
