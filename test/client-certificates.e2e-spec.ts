import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ConfidentialClientApplication } from '@azure/msal-node';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { CertificateEnv } from './support/certificate-env.js';
import { type ClientCertificate, makeAssertion, makeCertificate } from './support/client-certificates.js';

const run = promisify(execFile);

/**
 * Certificate credentials end to end (DESIGN §9): registered through the admin API, used by MSAL
 * Node and @azure/identity over https with only the authority changed, hand-made assertions and
 * replay across replicas. Every bad assertion and Entra's code for it: client-certificate-assertions.
 */
describe('certificate credentials', () => {
  const env = new CertificateEnv({ replica: true });
  const { tokenEndpoint, adminCall, withAssertion, logs } = env;
  let authority: string;
  let replicaUrl: string;
  let adminUrl: string;
  let operator: CertificateEnv['operator'];
  let tenantId: string;
  let clientId: string;
  let otherClientId: string;
  let certificate: ClientCertificate;
  let ecCertificate: ClientCertificate;
  let otherCertificate: ClientCertificate;
  let tls: CertificateEnv['tls'];
  beforeAll(
    () =>
      void ({ authority, replicaUrl, adminUrl, operator, tenantId, clientId, otherClientId, certificate, ecCertificate, otherCertificate, tls } =
        env),
  );

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
        disabledAt: null,
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


  it('logs hold no private key and no assertion', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.text).not.toContain('PRIVATE KEY');
    expect(logs.text).not.toMatch(/eyJ[A-Za-z0-9_-]{20,}\.eyJ/);
  });
});
