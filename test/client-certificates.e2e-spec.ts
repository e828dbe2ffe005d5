import { execFile } from 'node:child_process';
import { createSecretKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ConfidentialClientApplication } from '@azure/msal-node';
import type { INestApplication } from '@nestjs/common';
import { SignJWT, createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { AdminFixtures, type OperatorFixture } from './support/admin-fixtures.js';
import {
  type ClientCertificate,
  makeAssertion,
  makeCertificate,
  tlsCertificate,
  trustOnly,
} from './support/client-certificates.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const run = promisify(execFile);

/**
 * Certificate credentials end to end (DESIGN §9, SECURITY 51): registered through the admin API,
 * used by MSAL Node and @azure/identity over https with only the authority changed, hand-made
 * assertions, replay across replicas, and every bad assertion refused with Entra's code.
 */
describe('certificate credentials', () => {
  let database: TestDatabase;
  let identity: INestApplication;
  let replica: INestApplication;
  let admin: INestApplication;
  let authority: string;
  let replicaUrl: string;
  let adminUrl: string;
  let operator: OperatorFixture;
  let tenantId: string;
  let clientId: string;
  let otherClientId: string;
  let certificate: ClientCertificate;
  let ecCertificate: ClientCertificate;
  let otherCertificate: ClientCertificate;
  let restore: () => void = () => undefined;
  let tls: { cert: string; key: string };
  const logs = new LogCapture();

  const tokenEndpoint = () => `${authority}/oauth2/v2.0/token`;
  const adminCall = (method: string, path: string, body?: unknown) =>
    fetch(`${adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  async function withAssertion(assertion: string, base = authority, extra: Record<string, string> = {}) {
    const response = await fetch(`${base}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: assertion,
        scope: 'api://orders/.default',
        ...extra,
      }),
    });
    const body = (await response.json()) as { access_token?: string; error?: string; error_codes?: number[] };
    return { status: response.status, body, code: body.error_codes?.[0] ?? 200 };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    tls = await tlsCertificate();
    restore = await trustOnly(tls.cert);
    const [port, replicaPort, adminPort] = [await freePort(), await freePort(), await freePort()];
    const config = testConfig(database.url, { publicUrl: `https://localhost:${port}` });
    identity = await createIdentityApp({ config, logDestination: logs, https: { cert: tls.cert, key: tls.key } });
    await identity.listen(port, '127.0.0.1');
    // A second replica of the same deployment (same PUBLIC_URL), reached directly.
    replica = await createIdentityApp({ config, logDestination: logs });
    await replica.listen(replicaPort, '127.0.0.1');
    admin = await createAdminApp({ config, logDestination: logs });
    await admin.listen(adminPort, '127.0.0.1');
    adminUrl = `http://127.0.0.1:${adminPort}/admin/v1`;
    const adminFx = new AdminFixtures(admin, config);
    const tenant = await adminFx.tenant();
    tenantId = tenant.tenantId;
    operator = await adminFx.operator(tenant, ['Administrator']);
    const fx = new TokenFixtures(identity, config.secretPepper);
    const orders = await fx.api(tenantId, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    const client = await fx.client(tenantId);
    await fx.grant(tenantId, client.id, [orders.scopeIds['Orders.Read']!]);
    clientId = client.clientId;
    const other = await fx.readyClient(tenantId, orders, ['Orders.Read']);
    otherClientId = other.clientId;
    authority = `https://localhost:${port}/${tenantId}`;
    replicaUrl = `http://127.0.0.1:${replicaPort}/${tenantId}`;
    certificate = makeCertificate();
    ecCertificate = makeCertificate({ type: 'ec' });
    otherCertificate = makeCertificate();
  });

  afterAll(async () => {
    restore();
    await replica?.close();
    await identity?.close();
    await admin?.close();
    await database?.drop();
  });

  describe('admin API', () => {
    it('registers a certificate and answers its thumbprints as Entra shows them', async () => {
      const response = await adminCall('POST', `/clients/${clientId}/certificates`, {
        certificate: certificate.pem,
        displayName: 'daemon 2026',
      });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({
        keyId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        displayName: 'daemon 2026',
        thumbprint: certificate.sha1Hex,
        x5t: certificate.x5t,
        x5tS256: certificate.x5tS256,
        subject: 'CN=daemon.example.com',
        notBefore: expect.any(String),
        notAfter: expect.any(String),
        createdAt: expect.any(String),
        lastUsedAt: null,
        lastUsedFrom: null,
      });
      expect(
        (await adminCall('POST', `/clients/${clientId}/certificates`, { certificate: ecCertificate.pem })).status,
      ).toBe(201);
      const again = await adminCall('POST', `/clients/${clientId}/certificates`, { certificate: certificate.pem });
      expect(again.status).toBe(409);
      expect(
        (await adminCall('POST', `/clients/${otherClientId}/certificates`, { certificate: otherCertificate.pem }))
          .status,
      ).toBe(201);
      const audit = await fetch(`${adminUrl}/audit-events?action=client.certificate.added`, {
        headers: { authorization: `Bearer ${operator.token}` },
      });
      expect(((await audit.json()) as { items: unknown[] }).items).toHaveLength(3);
    });

    it('refuses expired certificates, weak or other keys, private keys and garbage', async () => {
      const cases: Array<[string, string]> = [
        [
          makeCertificate({
            notBefore: new Date(Date.now() - 2 * 86_400_000),
            notAfter: new Date(Date.now() - 86_400_000),
          }).pem,
          'certificate_expired',
        ],
        [makeCertificate({ bits: 1024 }).pem, 'invalid_certificate'],
        [`${certificate.pem}${certificate.privateKeyPem}`, 'invalid_certificate'],
        [`${certificate.pem}${otherCertificate.pem}`, 'invalid_certificate'],
        ['-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n', 'invalid_certificate'],
      ];
      for (const [pem, code] of cases) {
        const response = await adminCall('POST', `/clients/${clientId}/certificates`, { certificate: pem });
        expect(response.status, code).toBe(400);
        expect(await response.json()).toMatchObject({ code });
      }
    });

    it('lists the certificates and removes one (its assertions then fail at once)', async () => {
      const listed = (await (await adminCall('GET', `/clients/${clientId}/certificates`)).json()) as Array<{
        keyId: string;
        x5t: string;
      }>;
      expect(listed.map((c) => c.x5t).sort()).toEqual([certificate.x5t, ecCertificate.x5t].sort());
      const extra = makeCertificate();
      const added = (await (
        await adminCall('POST', `/clients/${clientId}/certificates`, { certificate: extra.pem })
      ).json()) as { keyId: string };
      const audience = tokenEndpoint();
      expect((await withAssertion(await makeAssertion(extra, { clientId, audience }))).status).toBe(200);
      expect((await adminCall('DELETE', `/clients/${clientId}/certificates/${added.keyId}`)).status).toBe(204);
      expect((await adminCall('DELETE', `/clients/${clientId}/certificates/${added.keyId}`)).status).toBe(404);
      const deadline = Date.now() + 3_000;
      let refused = await withAssertion(await makeAssertion(extra, { clientId, audience }));
      while (refused.status === 200 && Date.now() < deadline)
        refused = await withAssertion(await makeAssertion(extra, { clientId, audience }));
      expect(refused.code).toBe(700027);
    });
  });

  describe('real clients, unmodified, over https', () => {
    it('MSAL Node clientCertificate (PS256 + x5t#S256)', async () => {
      const msal = new ConfidentialClientApplication({
        auth: {
          clientId,
          authority,
          knownAuthorities: [new URL(authority).host],
          clientCertificate: { thumbprintSha256: certificate.sha256Hex, privateKey: certificate.privateKeyPem },
        },
      });
      const result = await msal.acquireTokenByClientCredential({ scopes: ['api://orders/.default'] });
      const jwks = createRemoteJWKSet(new URL(`${authority}/discovery/v2.0/keys`));
      const { payload } = await jwtVerify(result!.accessToken, jwks, { issuer: `${authority}/v2.0` });
      expect(payload).toMatchObject({ client_id: clientId, azp: clientId, azpacr: '2', roles: ['Orders.Read'] });
    });

    it('@azure/identity ClientCertificateCredential (the snippet of docs/client-developers.md, in its own process with NODE_EXTRA_CA_CERTS)', async () => {
      // @azure/identity sends its requests with node:https, which trusts what NODE_EXTRA_CA_CERTS
      // names when the process starts: exactly how a daemon runs against a development server.
      const caFile = join(mkdtempSync(join(tmpdir(), 'gatehouse-ca-')), 'ca.pem');
      writeFileSync(caFile, tls.cert);
      try {
        const { stdout } = await run(
          process.execPath,
          [join(import.meta.dirname, 'snippets/azure-identity-certificate.mjs')],
          {
            env: {
              ...process.env,
              NODE_EXTRA_CA_CERTS: caFile,
              GATEHOUSE_URL: new URL(authority).origin,
              TENANT_ID: tenantId,
              CLIENT_ID: clientId,
              CERTIFICATE_PEM: `${certificate.privateKeyPem}${certificate.pem}`,
            },
            timeout: 30_000,
          },
        );
        expect(JSON.parse(stdout)).toMatchObject({ azp: clientId, azpacr: '2', tid: tenantId, roles: ['Orders.Read'] });
      } finally {
        rmSync(dirname(caFile), { recursive: true, force: true });
      }
    });

    it('a hand-made RS256 assertion naming the certificate by x5t, and an ES256 one', async () => {
      const rs256 = await withAssertion(await makeAssertion(certificate, { clientId, audience: tokenEndpoint() }));
      expect(rs256.status).toBe(200);
      expect(decodeProtectedHeader(rs256.body.access_token!).typ).toBe('JWT');
      const es256 = await withAssertion(
        await makeAssertion(ecCertificate, {
          clientId,
          audience: tokenEndpoint(),
          alg: 'ES256',
          header: { x5t: ecCertificate.x5t },
        }),
      );
      expect(es256.status).toBe(200);
      // The tenant's slug form of the endpoint, the v1 endpoint's URL, and `kid` = thumbprint are accepted too.
      const slug = (await (await adminCall('GET', '/tenant')).json()) as { slug: string };
      const bySlug = await makeAssertion(certificate, {
        clientId,
        audience: `${new URL(authority).origin}/${slug.slug}/oauth2/token`,
        header: { x5t: undefined, kid: certificate.sha1Hex },
      });
      expect((await withAssertion(bySlug)).status).toBe(200);
    });

    it('an assertion is used once: the replay is refused on another replica too', async () => {
      const assertion = await makeAssertion(certificate, { clientId, audience: tokenEndpoint() });
      expect((await withAssertion(assertion)).status).toBe(200);
      expect(await withAssertion(assertion)).toMatchObject({ status: 401, code: 50013 });
      const fresh = await makeAssertion(certificate, { clientId, audience: tokenEndpoint() });
      expect((await withAssertion(fresh, replicaUrl)).status).toBe(200);
      expect(await withAssertion(fresh)).toMatchObject({ status: 401, code: 50013 });
    });
  });

  describe('bad assertions (SECURITY 51)', () => {
    const audience = () => tokenEndpoint();

    it('alg none and HS256 keyed with the certificate → 5002738', async () => {
      const header = Buffer.from(JSON.stringify({ alg: 'none', x5t: certificate.x5t })).toString('base64url');
      const payload = Buffer.from(
        JSON.stringify({
          iss: clientId,
          sub: clientId,
          aud: audience(),
          exp: Math.floor(Date.now() / 1000) + 300,
          jti: 'none-1',
        }),
      ).toString('base64url');
      expect(await withAssertion(`${header}.${payload}.`)).toMatchObject({ status: 401, code: 5002738 });
      const hmac = await new SignJWT({ iss: clientId, sub: clientId, aud: audience(), jti: 'hs-1' })
        .setProtectedHeader({ alg: 'HS256', x5t: certificate.x5t })
        .setExpirationTime('5m')
        .sign(createSecretKey(Buffer.from(certificate.pem)));
      expect(await withAssertion(hmac)).toMatchObject({ status: 401, code: 5002738 });
    });

    it('wrong audience → 700023; another tenant or a path variant is not this endpoint', async () => {
      for (const aud of [
        'https://login.microsoftonline.com/common/oauth2/v2.0/token',
        `${authority}/v2.0`,
        `${tokenEndpoint()}/`,
      ]) {
        expect(await withAssertion(await makeAssertion(certificate, { clientId, audience: aud })), aud).toMatchObject({
          status: 401,
          code: 700023,
        });
      }
    });

    it('expired, not yet valid, or day-long → 700024', async () => {
      const expired = await makeAssertion(certificate, {
        clientId,
        audience: audience(),
        issuedSecondsAgo: 1200,
        lifetimeSeconds: 300,
      });
      const future = await makeAssertion(certificate, { clientId, audience: audience(), issuedSecondsAgo: -1200 });
      const dayLong = await makeAssertion(certificate, { clientId, audience: audience(), lifetimeSeconds: 86_400 });
      for (const assertion of [expired, future, dayLong]) {
        expect(await withAssertion(assertion)).toMatchObject({ status: 401, code: 700024 });
      }
    });

    it("another client's certificate, a tampered signature, no certificate named → 700027 / 5002723", async () => {
      const borrowed = await makeAssertion(otherCertificate, {
        clientId,
        audience: audience(),
        header: { x5t: otherCertificate.x5t },
      });
      expect(await withAssertion(borrowed)).toMatchObject({ status: 401, code: 700027 });
      const forged = await makeAssertion(otherCertificate, {
        clientId,
        audience: audience(),
        header: { x5t: certificate.x5t },
      });
      expect(await withAssertion(forged)).toMatchObject({ status: 401, code: 700027 });
      const anonymous = await makeAssertion(certificate, {
        clientId,
        audience: audience(),
        header: { x5t: undefined },
      });
      expect(await withAssertion(anonymous)).toMatchObject({ status: 401, code: 5002723 });
    });

    it('no jti → 90014; iss ≠ sub or ≠ client_id → 700021; malformed or a control character in jti → 50027; secret and assertion both → 90014', async () => {
      expect(
        await withAssertion(await makeAssertion(certificate, { clientId, audience: audience(), jti: null })),
      ).toMatchObject({
        status: 400,
        code: 90014,
      });
      const mismatch = await makeAssertion(certificate, {
        clientId,
        audience: audience(),
        claims: { sub: otherClientId },
      });
      expect(await withAssertion(mismatch)).toMatchObject({ status: 401, code: 700021 });
      const forOther = await makeAssertion(certificate, { clientId: otherClientId, audience: audience() });
      expect(await withAssertion(forOther)).toMatchObject({ status: 401, code: 700021 });
      expect(await withAssertion('not.a.jwt')).toMatchObject({ status: 400, code: 50027 });
      const controlJti = await makeAssertion(certificate, { clientId, audience: audience(), jti: 'a\u0000b' });
      expect(await withAssertion(controlJti)).toMatchObject({ status: 400, code: 50027 });
      const good = await makeAssertion(certificate, { clientId, audience: audience() });
      expect(await withAssertion(good, authority, { client_secret: 'x' })).toMatchObject({ status: 400, code: 90014 });
    });

    it('an expired registered certificate → 7000274', async () => {
      const aging = makeCertificate({ notAfter: new Date(Date.now() + 2_000) });
      expect((await adminCall('POST', `/clients/${clientId}/certificates`, { certificate: aging.pem })).status).toBe(
        201,
      );
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await withAssertion(await makeAssertion(aging, { clientId, audience: audience() }))).toMatchObject({
        status: 401,
        code: 7000274,
      });
    });
  });

  it('logs hold no private key and no assertion', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.text).not.toContain('PRIVATE KEY');
    expect(logs.text).not.toMatch(/eyJ[A-Za-z0-9_-]{20,}\.eyJ/);
  });
});
