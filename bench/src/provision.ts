// Provisioning of the benchmark's database: a tenant, an API with a scope, a client with a secret
// and a certificate, and the bootstrap operator's client — through the real services.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { ApiService } from '@gatehouse/apis';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientCertificateService, ClientService } from '@gatehouse/clients';
import { certificatePem, selfSignedCertificate } from '@gatehouse/crypto';
import type { AppConfig } from '@gatehouse/config';
import { BootstrapService } from '@gatehouse/provisioning';
import { migrateDatabase } from '@gatehouse/schema';
import { TenantService } from '@gatehouse/tenants';
import { SigningKeyService } from '@gatehouse/tokens';
import type { AssertionAlgorithm, BenchCertificate } from './assertion-signer.js';
import { createProvisioningContext } from '../../apps/cli/src/provisioning.context.js';
import { benchConfig } from './bench-config.js';
import { type Target, databaseUrl, onServer, repoRoot, smoke } from './harness.js';
import { API_IDENTIFIER, type Algorithm, SCOPE_VALUE } from './protocol.js';

export interface Provisioned {
  /** The client's certificate credentials: RSA-2048 (PS256 assertions) and EC P-256 (ES256). */
  certificates: Record<AssertionAlgorithm, BenchCertificate>;
  databaseName: string;
  databaseUrl: string;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  pepper: Buffer;
  kek: Buffer;
  config: AppConfig;
  /** The bootstrap operator's client (admin API scopes through its owner's Administrator role). */
  adminClient: { clientId: string; clientSecret: string; scope: string };
  /** The id of the scope `Orders.Read` (generated clients are granted it). */
  scopeId: string;
  setAlgorithm(alg: Algorithm): Promise<void>;
  close(): Promise<void>;
}

const discard = new Writable({ write: (_chunk, _encoding, done) => done() });

/** A fresh database, migrated; a tenant, the API `api://orders` with a scope and a client with a secret, through the real services. */
export async function provision(): Promise<Provisioned> {
  const databaseName = `gatehouse_bench_${randomBytes(4).toString('hex')}`;
  await onServer(`CREATE DATABASE "${databaseName}"`);
  const url = databaseUrl(databaseName);
  await migrateDatabase(url);
  const pepper = randomBytes(32);
  const kek = randomBytes(32);
  const config: AppConfig = {
    ...benchConfig({ databaseUrl: url, publicUrl: 'http://127.0.0.1', pepper, kek }),
    logLevel: 'warn',
  };
  const context = await createProvisioningContext(config, discard);
  const admin = await context.get(BootstrapService).bootstrap({ tenant: 'bench', rotateSecret: false });
  const { tenantId } = admin;
  const api = await context
    .get(ApiService)
    .create(tenantId, SYSTEM_ACTOR, { identifier: API_IDENTIFIER, displayName: 'Orders' });
  const scope = await context
    .get(ApiService)
    .addScope(tenantId, SYSTEM_ACTOR, api.id, { value: SCOPE_VALUE, description: 'Read orders' });
  const clients = context.get(ClientService);
  const client = await clients.create(tenantId, SYSTEM_ACTOR, {
    displayName: 'Benchmark',
    contactEmail: 'bench@example.com',
  });
  const secret = await clients.issueSecret(tenantId, SYSTEM_ACTOR, client.clientId, { displayName: 'bench' });
  await clients.setScopes(tenantId, SYSTEM_ACTOR, client.clientId, [`${API_IDENTIFIER}/${SCOPE_VALUE}`]);
  const dataSource = context.get(DataSource);
  const certificates = {} as Record<AssertionAlgorithm, BenchCertificate>;
  for (const alg of ['PS256', 'ES256'] as const) {
    certificates[alg] = await registerCertificate(context.get(ClientCertificateService), tenantId, client.clientId, alg);
  }
  return {
    certificates,
    databaseName,
    databaseUrl: url,
    tenantId,
    clientId: client.clientId,
    clientSecret: secret.secretText,
    pepper,
    kek,
    config,
    adminClient: { clientId: admin.clientId, clientSecret: admin.clientSecret!, scope: admin.scope },
    scopeId: scope.id,
    // The setting publishes a key of the new algorithm, which would sign a day later; the benchmark
    // rolls it in at once (the emergency rollover) so that the next run signs with it.
    setAlgorithm: (alg) =>
      dataSource.transaction(async (em) => {
        await context.get(TenantService).updateSettings(em, tenantId, { signingAlgorithm: alg });
        await context.get(SigningKeyService).rollover(em, tenantId, alg);
      }),
    close: () => context.close(),
  };
}

/** A self-signed certificate (a day long) registered as the client's credential, and its private key. */
async function registerCertificate(
  service: ClientCertificateService,
  tenantId: string,
  clientId: string,
  alg: AssertionAlgorithm,
): Promise<BenchCertificate> {
  const { privateKey } =
    alg === 'PS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = Date.now();
  const der = selfSignedCertificate(privateKey, {
    commonName: `bench daemon ${alg}`,
    notBefore: new Date(now - 3_600_000),
    notAfter: new Date(now + 86_400_000),
  });
  await service.add(tenantId, SYSTEM_ACTOR, clientId, { certificate: certificatePem(der) });
  return {
    alg,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    x5tS256: createHash('sha256').update(der).digest('base64url'),
  };
}

export function targets(p: Provisioned, alg: Algorithm): Target[] {
  const gatehouseForm = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: p.clientId,
    client_secret: p.clientSecret,
    scope: `${API_IDENTIFIER}/.default`,
  }).toString();
  const shared = { ALG: alg, CLIENT_ID: p.clientId, CLIENT_SECRET: p.clientSecret, SCOPE: SCOPE_VALUE };
  return [
    {
      name: 'ceiling',
      script: 'ceiling-server.js',
      tokenPath: '/token',
      jwksPath: '/jwks',
      body: gatehouseForm,
      env: { ...shared, PEPPER: p.pepper.toString('hex') },
    },
    {
      name: 'gatehouse',
      script: 'gatehouse-server.js',
      tokenPath: `/${p.tenantId}/oauth2/v2.0/token`,
      jwksPath: `/${p.tenantId}/discovery/v2.0/keys`,
      body: gatehouseForm,
      env: {
        DATABASE_URL: p.databaseUrl,
        PEPPER: p.pepper.toString('hex'),
        KEK: p.kek.toString('hex'),
        // A smoke run checks that every scenario runs, not how fast: a short warm-up keeps it short.
        ...(smoke ? { TOKEN_WARMUP_REQUESTS: '1000' } : {}),
      },
      nodeArgs: imageNodeFlags(),
    },
    {
      name: 'oidc-provider',
      script: 'oidc-provider-server.js',
      tokenPath: '/token',
      jwksPath: '/jwks',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: p.clientId,
        client_secret: p.clientSecret,
        scope: SCOPE_VALUE,
      }).toString(),
      env: { ...shared, RESOURCE: API_IDENTIFIER },
    },
  ];
}

/**
 * The node flags of the image's ENTRYPOINT (`["node", ...flags, "<script>"]` in the Dockerfile), so
 * that Gatehouse runs here as it does in production.
 */
export function imageNodeFlags(): string[] {
  const dockerfile = readFileSync(join(repoRoot, 'Dockerfile'), 'utf8');
  const entrypoint = JSON.parse(/^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
  return entrypoint.slice(1, -1).filter((arg) => arg.startsWith('--'));
}
