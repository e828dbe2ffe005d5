import pg from 'pg';
import { BenchIssuer } from './federated-issuer.js';
import type { Provisioned, Target } from './harness.js';
import { API_IDENTIFIER } from './protocol.js';
import { type Sample, medianSample, ratios } from './samples.js';

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

/** The issuer, trusted by the bench client, and the secret and federated forms of one server's target. */
export interface FederatedSetup {
  issuer: BenchIssuer;
  /** Gatehouse's target with the issuer allowed (a private address) and its CA trusted. */
  target: Target;
  /** The same with a Kubernetes-shaped token as client_assertion, one reused for every request as a pod does. */
  federated: Target;
}

/** Starts the issuer and makes it a federated credential of the bench client; close `issuer` when done. */
export async function federatedSetup(provisioned: Provisioned, gatehouse: Target): Promise<FederatedSetup> {
  const issuer = await new BenchIssuer().start();
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
  return { issuer, target, federated };
}

/** Federated windows against secret ones, alternated on one server; the issuer's request count over the run. */
export function federatedFigures(secrets: Sample[], assertions: Sample[], issuerRequests: number): FederatedFigures {
  const secret = medianSample(secrets);
  const fed = medianSample(assertions);
  return {
    secretTokensPerSec: secret.tokensPerSec,
    cpuUsPerTokenSecret: secret.cpuUs,
    federatedTokensPerSec: fed.tokensPerSec,
    cpuUsPerTokenFederated: fed.cpuUs,
    ...ratios(fed, secret),
    issuerRequests,
  };
}
