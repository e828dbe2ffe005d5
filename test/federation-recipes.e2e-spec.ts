import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { issuerOf } from '@gatehouse/tokens';
import { docSnippet, snippetFile } from './support/doc-snippets.js';
import { FederationEnv, claimsOf } from './support/federation-env.js';
import type { TestIssuer } from './support/oidc-issuer.js';

const run = promisify(execFile);
const DOC = 'docs/federation.md';
const PYTHON = '/usr/bin/python3';
const msalPython = (() => {
  try {
    execFileSync(PYTHON, ['-c', 'import msal'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (process.env.GATEHOUSE_REQUIRE_COUNTERPARTS && !msalPython) throw new Error('python3-msal must be installed (see .ci/run)');

interface Step {
  env: Record<string, string>;
  run: string;
}
interface Container {
  env: Array<{ name: string; value: string }>;
}

/**
 * docs/federation.md's recipes, read from the page and run as their platforms run them: the GitHub
 * Actions step's script against a job-token endpoint shaped like GitHub's; @azure/identity's
 * WorkloadIdentityCredential, unmodified, in its own process with the variables of the Kubernetes
 * manifest and a projected-token file; ClientAssertionCredential tenant to tenant; MSAL Python
 * with a client assertion. Every hop over https; no client holds a secret but tenant A's.
 */
describe('docs/federation.md recipes, run', () => {
  const env = new FederationEnv();
  let dir: string;
  let caFile: string;
  let github: TestIssuer;
  let cluster: TestIssuer;
  let deploy: { clientId: string };
  let sync: { clientId: string };

  beforeAll(async () => {
    await env.start();
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-federation-recipes-'));
    caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, `${env.tls.cert}\n${env.issuers.ca}`); // Gatehouse's certificate, and the issuers' CA for curl
    github = await env.issuers.issuer('github');
    cluster = await env.issuers.issuer('cluster', { alg: 'ES256' });
    deploy = await env.client();
    await env.credential(deploy.clientId, { name: 'github-production', issuer: github.url, subject: 'repo:contoso/orders:environment:production' });
    sync = await env.client();
    await env.credential(sync.clientId, { name: 'k8s-orders-sync', issuer: cluster.url, subject: 'system:serviceaccount:orders:orders-sync' });
  });

  /** Runs a recipe of the page in its own process, trusting Gatehouse's certificate; the claims it prints. */
  async function recipe(command: string, name: string, extension: string, vars: Record<string, string>) {
    const { stdout } = await run(command, [snippetFile(DOC, name, extension)], {
      env: { PATH: process.env.PATH!, NODE_EXTRA_CA_CERTS: caFile, REQUESTS_CA_BUNDLE: caFile, ...vars },
      timeout: 30_000,
    });
    return JSON.parse(stdout) as Record<string, unknown>;
  }
  /** What a workload's platform gives it: where Gatehouse is, which client, the token file. */
  const workload = (clientId: string, tokenFile: string) => ({
    AZURE_AUTHORITY_HOST: `https://localhost:${env.port}`,
    AZURE_TENANT_ID: env.tenantId,
    AZURE_CLIENT_ID: clientId,
    AZURE_FEDERATED_TOKEN_FILE: tokenFile,
  });

  afterAll(async () => {
    await env.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('GitHub Actions: the workflow step’s script gets a token with the job’s OIDC token', async () => {
    const workflow = parse(docSnippet(DOC, 'github-workflow')) as { permissions: Record<string, string>; jobs: { deploy: { steps: Step[] } } };
    expect(workflow.permissions['id-token']).toBe('write');
    const [step] = workflow.jobs.deploy.steps;
    const job = github.actionsJob('contoso/orders', 'production');
    const githubEnv = join(dir, 'github-env');
    writeFileSync(githubEnv, '');
    await run('bash', ['-e', '-c', step!.run], {
      env: {
        PATH: process.env.PATH!,
        CURL_CA_BUNDLE: caFile,
        ACTIONS_ID_TOKEN_REQUEST_URL: job.requestUrl,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: job.requestToken,
        GITHUB_ENV: githubEnv,
        ...step!.env,
        GATEHOUSE: `https://localhost:${env.port}`,
        TENANT_ID: env.tenantId,
        CLIENT_ID: deploy.clientId,
      },
      timeout: 30_000,
    });
    const accessToken = /^ACCESS_TOKEN=(.+)$/m.exec(readFileSync(githubEnv, 'utf8'))![1]!;
    expect(claimsOf(accessToken)).toMatchObject({ azp: deploy.clientId, azpacr: '2', roles: ['Orders.Read'] });
  });

  it('Kubernetes: WorkloadIdentityCredential with the manifest’s variables and a projected token file', async () => {
    const [, deployment] = parseAllDocuments(docSnippet(DOC, 'kubernetes-manifest')).map((d) => d.toJS());
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0] as Container;
    const projected = pod.volumes[0].projected.sources[0].serviceAccountToken;
    expect(container.env.map((e) => e.name).sort()).toEqual(['AZURE_AUTHORITY_HOST', 'AZURE_CLIENT_ID', 'AZURE_FEDERATED_TOKEN_FILE', 'AZURE_TENANT_ID']);
    expect(pod.serviceAccountName).toBe('orders-sync');
    const tokenFile = join(dir, projected.path);
    writeFileSync(tokenFile, await cluster.kubernetes(deployment.metadata.namespace, pod.serviceAccountName, { audience: projected.audience, lifetimeSeconds: projected.expirationSeconds }));
    const claims = await recipe(process.execPath, 'workload-identity', 'mjs', workload(sync.clientId, tokenFile));
    expect(claims).toMatchObject({ azp: sync.clientId, azpacr: '2', tid: env.tenantId });
  });

  it('another Gatehouse tenant: ClientAssertionCredential with tenant A’s token for api://AzureADTokenExchange', async () => {
    const a = await env.tokens.client(env.tenantId, { state: 'awaiting_scopes' });
    const secretA = (await env.tokens.secret(env.tenantId, a.id)).value;
    const tenantB = (await env.tokens.tenant()).id;
    const ordersB = await env.tokens.api(tenantB, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    const b = await env.client(tenantB, ordersB);
    await env.tokens.dataSource.query(
      `INSERT INTO client_federated_credentials (tenant_id, api_client_id, name, issuer, subject, audiences) VALUES ($1, $2, 'tenant-a', $3, $4, $5)`,
      [tenantB, b.id, issuerOf(env.config.publicUrl, env.tenantId), a.id, ['api://AzureADTokenExchange']],
    );
    const claims = await recipe(process.execPath, 'tenant-to-tenant', 'mjs', {
      GATEHOUSE: `https://localhost:${env.port}`,
      TENANT_A: env.tenantId,
      CLIENT_A: a.clientId,
      CLIENT_A_SECRET: secretA,
      TENANT_B: tenantB,
      CLIENT_B: b.clientId,
    });
    expect(claims).toMatchObject({ azp: b.clientId, azpacr: '2', tid: tenantB, roles: ['Orders.Read'] });
  });

  it.skipIf(!msalPython)('MSAL Python with a client assertion (python3-msal)', async () => {
    const tokenFile = join(dir, 'python-token');
    writeFileSync(tokenFile, await cluster.kubernetes('orders', 'orders-sync'));
    const claims = await recipe(PYTHON, 'msal-python-assertion', 'py', workload(sync.clientId, tokenFile));
    expect(claims).toMatchObject({ azp: sync.clientId, azpacr: '2' });
  });
});
