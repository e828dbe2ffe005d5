import { X509Certificate, createHash, createPublicKey } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

const PUBLIC_URL = 'https://id.example.com';

describe('discovery and JWKS', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let tenant: { id: string; slug: string };

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, { publicUrl: PUBLIC_URL });
    app = await createIdentityApp({ config, logDestination: new LogCapture() });
    tenant = await new TokenFixtures(app, config.secretPepper).tenant({ algorithm: 'ES256' });
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('publishes OpenID Connect / RFC 8414 metadata whose issuer is the URL base exactly', async () => {
    for (const name of [tenant.id, tenant.slug]) {
      const response = await request(app.getHttpServer()).get(`/${name}/v2.0/.well-known/openid-configuration`).expect(200);
      const base = `${PUBLIC_URL}/${tenant.id}`;
      expect(response.body).toMatchObject({
        issuer: `${base}/v2.0`,
        token_endpoint: `${base}/oauth2/v2.0/token`,
        jwks_uri: `${base}/discovery/v2.0/keys`,
        authorization_endpoint: `${base}/oauth2/v2.0/authorize`,
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
        token_endpoint_auth_signing_alg_values_supported: ['PS256', 'RS256', 'ES256'],
        scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
        tenant_region_scope: 'WW',
        response_types_supported: expect.any(Array),
        subject_types_supported: expect.any(Array),
        id_token_signing_alg_values_supported: expect.arrayContaining(['RS256']),
      });
      expect(JSON.stringify(response.body)).not.toMatch(/"none"/);
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it("publishes Entra's v1 document: v1 issuer, the v1 token endpoint and its JWKS", async () => {
    const response = await request(app.getHttpServer()).get(`/${tenant.slug}/.well-known/openid-configuration`).expect(200);
    const base = `${PUBLIC_URL}/${tenant.id}`;
    expect(response.body).toMatchObject({
      issuer: `${base}/`,
      token_endpoint: `${base}/oauth2/token`,
      jwks_uri: `${base}/discovery/keys`,
      token_endpoint_auth_methods_supported: expect.arrayContaining(['private_key_jwt']),
    });
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const v1Keys = await request(app.getHttpServer()).get(`/${tenant.id}/discovery/keys`).expect(200);
    const v2Keys = await request(app.getHttpServer()).get(`/${tenant.id}/discovery/v2.0/keys`).expect(200);
    expect(v1Keys.body).toEqual(v2Keys.body);
  });

  it('answers the authorization endpoint with an Entra-shaped 400', async () => {
    const response = await request(app.getHttpServer()).get(`/${tenant.id}/oauth2/v2.0/authorize?response_type=code`).expect(400);
    expect(response.body).toMatchObject({ error: 'unsupported_response_type', error_codes: [700054] });
  });

  it('publishes the JWKS with public members, x5c and x5t, cached a day, readable from any origin', async () => {
    const response = await request(app.getHttpServer()).get(`/${tenant.slug}/discovery/v2.0/keys`).expect(200);
    expect(response.headers['cache-control']).toBe('public, max-age=86400');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.body.keys).toHaveLength(1);
    const [key] = response.body.keys;
    expect(key).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: expect.any(String),
      y: expect.any(String),
      kid: expect.any(String),
      use: 'sig',
      alg: 'ES256',
      x5t: expect.any(String),
      x5c: [expect.any(String)],
    });
    // x5c is a certificate of this very key, signed by it; x5t is its SHA-1 thumbprint.
    const der = Buffer.from(key.x5c[0], 'base64');
    const certificate = new X509Certificate(der);
    const jwkKey = createPublicKey({ key: { kty: key.kty, crv: key.crv, x: key.x, y: key.y }, format: 'jwk' });
    expect(certificate.verify(jwkKey)).toBe(true);
    expect(certificate.publicKey.export({ format: 'jwk' })).toEqual({ kty: 'EC', crv: 'P-256', x: key.x, y: key.y });
    expect(key.x5t).toBe(createHash('sha1').update(der).digest('base64url'));
  });

  it('error_uri leads to an explanation', async () => {
    const response = await request(app.getHttpServer()).get('/error?code=7000215').expect(200);
    expect(response.body).toEqual({ code: 'AADSTS7000215', description: expect.stringContaining('secret') });
  });

  it('unknown tenant → Entra-shaped 400 90002 on both documents', async () => {
    for (const path of ['/nobody/v2.0/.well-known/openid-configuration', '/nobody/discovery/v2.0/keys']) {
      const response = await request(app.getHttpServer()).get(path).expect(400);
      expect(response.body).toMatchObject({ error: 'invalid_request', error_codes: [90002] });
      expect(response.body.error_description).toMatch(/^AADSTS90002: /);
    }
  });
});
