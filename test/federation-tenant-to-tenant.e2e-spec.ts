import { generateKeyPairSync } from 'node:crypto';
import { ConfidentialClientApplication } from '@azure/msal-node';
import { SignJWT, decodeProtectedHeader } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IssuerKeys, issuerOf } from '@gatehouse/tokens';
import { AdminFixtures } from './support/admin-fixtures.js';
import { FederationEnv, claimsOf } from './support/federation-env.js';

/**
 * Gatehouse as an issuer (DESIGN §11): a client of tenant A asks its own tenant for
 * `api://AzureADTokenExchange/.default`, as an Entra managed identity does, and that token is a
 * federated credential of a client in tenant B (issuer `{PUBLIC_URL}/{tenant A}/v2.0`, subject the
 * client's object id). Both hops with MSAL Node, unmodified; tenant B verifies with the keys in the
 * database, so Gatehouse on loopback needs no allow-list entry for itself and makes no HTTP call.
 */
describe('federation: a Gatehouse tenant as the issuer of another tenant’s federated credential', () => {
  const env = new FederationEnv();
  let clientA: { id: string; clientId: string; secret: string };
  let objectIdA: string;
  let tenantB: { tenantId: string; token: string };
  let clientB: { clientId: string };

  const msal = (tenantId: string, clientId: string, credential: { clientSecret: string } | { clientAssertion: () => Promise<string> }) =>
    new ConfidentialClientApplication({
      auth: { clientId, authority: `https://localhost:${env.port}/${tenantId}`, knownAuthorities: [`localhost:${env.port}`], ...credential },
    });
  const exchangeToken = async () =>
    (await msal(env.tenantId, clientA.clientId, { clientSecret: clientA.secret }).acquireTokenByClientCredential({ scopes: ['api://AzureADTokenExchange/.default'] }))!.accessToken;

  beforeAll(async () => {
    await env.start();
    // Tenant A: a client with a secret and no scope at all (it exists to prove itself elsewhere).
    const a = await env.tokens.client(env.tenantId, { state: 'awaiting_scopes' });
    clientA = { ...a, secret: (await env.tokens.secret(env.tenantId, a.id)).value };
    // Tenant B: its own Administrator, API and client without any secret.
    const fixtures = new AdminFixtures(env.admin, env.config);
    const b = await fixtures.tenant();
    tenantB = { tenantId: b.tenantId, token: (await fixtures.operator(b, ['Administrator'])).token };
    const ordersB = await env.tokens.api(b.tenantId, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    clientB = await env.client(b.tenantId, ordersB);
  });

  afterAll(() => env.stop());

  it('tenant A answers for api://AzureADTokenExchange: a v2 token with that audience, no roles, its issuer and the client’s object id', async () => {
    const shown = await request(env.admin.getHttpServer())
      .get(`/admin/v1/clients/${clientA.clientId}`)
      .set('authorization', `Bearer ${env.operatorToken}`);
    objectIdA = shown.body.objectId;
    expect(objectIdA).toBe(clientA.id);
    const token = await exchangeToken();
    expect(decodeProtectedHeader(token)).toMatchObject({ typ: 'JWT' });
    expect(claimsOf(token)).toMatchObject({
      iss: issuerOf(env.config.publicUrl, env.tenantId),
      aud: 'api://AzureADTokenExchange',
      sub: objectIdA,
      azp: clientA.clientId,
      roles: [],
    });
    const defined = await request(env.admin.getHttpServer())
      .post('/admin/v1/apis')
      .set('authorization', `Bearer ${env.operatorToken}`)
      .send({ identifier: 'api://AzureADTokenExchange', displayName: 'mine' });
    expect(defined.body.code).toBe('api_identifier_reserved');
  });

  it('that token gets tenant B’s client a token, through MSAL Node’s clientAssertion, with no HTTP call to any issuer', async () => {
    await env.credential(
      clientB.clientId,
      { name: 'from-tenant-a', issuer: issuerOf(env.config.publicUrl, env.tenantId), subject: objectIdA },
      tenantB.token,
    );
    const fetches = env.identity.get(IssuerKeys).fetches;
    const result = await msal(tenantB.tenantId, clientB.clientId, { clientAssertion: exchangeToken }).acquireTokenByClientCredential({
      scopes: ['api://orders/.default'],
    });
    expect(claimsOf(result!.accessToken)).toMatchObject({
      iss: issuerOf(env.config.publicUrl, tenantB.tenantId),
      azp: clientB.clientId,
      azpacr: '2',
      roles: ['Orders.Read'],
    });
    expect(env.identity.get(IssuerKeys).fetches).toBe(fetches);
    expect(env.config.federationPrivateIssuers).toEqual([env.issuers.origin]);
  });

  it('refuses tenant A’s token for another audience (700212), another tenant’s token (700211), and a forged one (700027)', async () => {
    const ordersA = (await msal(env.tenantId, clientA.clientId, { clientSecret: clientA.secret }).acquireTokenByClientCredential({ scopes: ['api://orders/.default'] }).catch(() => null));
    expect(ordersA).toBeNull(); // client A holds no scope of api://orders: nothing to present there
    const withOrders = await env.client();
    const secret = (await env.tokens.secret(env.tenantId, withOrders.id)).value;
    const forOrders = (await msal(env.tenantId, withOrders.clientId, { clientSecret: secret }).acquireTokenByClientCredential({ scopes: ['api://orders/.default'] }))!.accessToken;
    await env.credential(clientB.clientId, { name: 'orders-client', issuer: issuerOf(env.config.publicUrl, env.tenantId), subject: withOrders.id }, tenantB.token);
    expect((await env.exchange(clientB.clientId, forOrders, {}, `https://localhost:${env.port}/${tenantB.tenantId}`)).code).toBe(700212);
    const fromB = (await msal(tenantB.tenantId, clientB.clientId, { clientAssertion: exchangeToken }).acquireTokenByClientCredential({ scopes: ['api://AzureADTokenExchange/.default'] }))!.accessToken;
    expect((await env.exchange(clientB.clientId, fromB, {}, `https://localhost:${env.port}/${tenantB.tenantId}`)).code).toBe(700211);
    const genuine = await exchangeToken();
    const forged = await new SignJWT(claimsOf(genuine))
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: decodeProtectedHeader(genuine).kid! })
      .sign(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
    const refused = await env.exchange(clientB.clientId, forged, {}, `https://localhost:${env.port}/${tenantB.tenantId}`);
    expect(refused).toMatchObject({ status: 401, code: 700027 });
  });
});
