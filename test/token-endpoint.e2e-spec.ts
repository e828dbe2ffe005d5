import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { MetricsRegistry } from '@gatehouse/http';
import { TokenEndpointEnv, UUID } from './support/token-endpoint-env.js';

/** The token endpoint: tokens it issues, and what it answers a client it must refuse. Malformed requests: token-request-shape. */
describe('token endpoint', () => {
  const env = new TokenEndpointEnv();
  const { post, valid, expectError, rawRequest, tokenPath, form } = env;
  const { logs, secrets } = env;
  let app: TokenEndpointEnv['app'];
  let fx: TokenEndpointEnv['fx'];
  let publicUrl: string;
  let tenant: TokenEndpointEnv['tenant'];
  let orders: TokenEndpointEnv['orders'];
  let client: TokenEndpointEnv['client'];
  beforeAll(() => void ({ app, fx, publicUrl, tenant, orders, client } = env));

  describe('success', () => {
    it('issues an RFC 9068 token by client_secret_post that verifies against the discovered JWKS', async () => {
      const response = await post(valid()).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.pragma).toBe('no-cache');
      expect(Object.keys(response.body).sort()).toEqual(['access_token', 'expires_in', 'ext_expires_in', 'token_type']);
      expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, ext_expires_in: 1800 });
      const discovery = await request(app.getHttpServer())
        .get(`/${tenant.slug}/v2.0/.well-known/openid-configuration`)
        .expect(200);
      const jwks = createRemoteJWKSet(new URL(discovery.body.jwks_uri));
      const { payload, protectedHeader } = await jwtVerify(response.body.access_token, jwks, {
        issuer: `${publicUrl}/${tenant.id}/v2.0`,
        audience: orders.appId,
        typ: 'JWT', // Entra's, the default; an API may ask for RFC 9068's at+jwt (federation-entra-differences)
      });
      expect(protectedHeader.alg).toBe('RS256');
      expect(protectedHeader.kid).toEqual(expect.any(String));
      expect(payload).toMatchObject({
        sub: client.id,
        oid: client.id,
        client_id: client.clientId,
        azp: client.clientId,
        azpacr: '1',
        tid: tenant.id,
        roles: ['Orders.Read', 'Orders.Write'],
        scope: 'Orders.Read Orders.Write',
        idtyp: 'app',
        ver: '2.0',
      });
      expect(payload.exp! - payload.iat!).toBe(900);
      expect(payload.nbf).toBe(payload.iat);
      expect(payload.jti).toMatch(UUID);
      const users: Array<{ id: string }> = await fx.dataSource.query('SELECT id FROM users');
      expect(users.map((u) => u.id)).not.toContain(payload.sub);
    });

    it('accepts the tenant id as well as the slug, and the API app id as resource', async () => {
      const response = await post(
        { ...valid(), scope: `${orders.appId}/Orders.Read` },
        `/${tenant.id}/oauth2/v2.0/token`,
      ).expect(200);
      const header = decodeProtectedHeader(response.body.access_token);
      expect(header.typ).toBe('JWT');
      const again = await post({ ...valid(), scope: `api://${orders.appId}/.default` }).expect(200);
      expect(again.body.access_token).toEqual(expect.any(String));
    });

    it('narrows the token to the scopes asked for', async () => {
      const response = await post({ ...valid(), scope: 'api://orders/Orders.Write' }).expect(200);
      const jwks = createRemoteJWKSet(new URL(`${publicUrl}/${tenant.id}/discovery/v2.0/keys`));
      const { payload } = await jwtVerify(response.body.access_token, jwks);
      expect(payload.roles).toEqual(['Orders.Write']);
      expect(payload.scope).toBe('Orders.Write');
    });

    it('accepts client_secret_basic with form-encoded id and secret (RFC 6749 Appendix B)', async () => {
      const odd = await fx.readyClient(tenant.id, orders, ['Orders.Read'], 'se:cr+et%20 ü/€=');
      secrets.push(odd.secret);
      const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
      const basic = Buffer.from(`${encode(odd.clientId)}:${encode(odd.secret)}`).toString('base64');
      const response = await request(app.getHttpServer())
        .post(tokenPath())
        .set('Authorization', `Basic ${basic}`)
        .type('form')
        .send(form({ grant_type: 'client_credentials', scope: 'api://orders/.default' }))
        .expect(200);
      expect(response.body.token_type).toBe('Bearer');
    });

    it('serves the path variants Express matches too, and counts issued tokens for /metrics', async () => {
      const issued = app.get(MetricsRegistry).tokensIssued.count;
      const response = await post(valid(), `${tokenPath()}/`).expect(200);
      expect(response.headers['cache-control']).toBe('no-store');
      const fast = await post(valid()).expect(200);
      expect(fast.headers['x-request-id']).toMatch(UUID);
      expect(fast.headers['x-content-type-options']).toBe('nosniff');
      expect(app.get(MetricsRegistry).tokensIssued.count).toBe(issued + 2);
      expect(await app.get(MetricsRegistry).registry.metrics()).toMatch(/^gatehouse_tokens_issued_total [1-9]/m);
    });

    it('reads a body that arrives in pieces, and keeps serving after a client hangs up mid-body', async () => {
      const body = form(valid());
      const head = `POST ${tokenPath()} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      const answer = await rawRequest([head, body.slice(0, 40), body.slice(40, 90), body.slice(90)]);
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
      expect(answer).toContain('"access_token":"');
      await rawRequest([head, body.slice(0, 40)], { hangUp: true });
      await post(valid()).expect(200);
    });

    it('accepts the client id in any letter case (it is a UUID)', async () => {
      await post({ ...valid(), client_id: client.clientId.toUpperCase() }).expect(200);
    });

    it('ignores unknown parameters and uses client-request-id as correlation id', async () => {
      await post({ ...valid(), 'x-client-SKU': 'MSAL.Node', 'x-client-VER': '7.2.1', client_info: '1' }).expect(200);
      const id = '0b6f4c1e-8f3a-4a3b-9e0a-2d4f3c2b1a00';
      const response = await request(app.getHttpServer())
        .post(`${tokenPath()}?client-request-id=${id}`)
        .type('form')
        .send(form({ ...valid(), client_secret: 'wrong' }));
      expect(response.body.correlation_id).toBe(id);
    });
  });

  describe('errors', () => {
    it('wrong secret → 401 invalid_client 7000215', async () => {
      await expectError(await post({ ...valid(), client_secret: 'nope' }), 401, 'invalid_client', 7000215);
    });

    it('wrong secret by Basic → 401 with WWW-Authenticate: Basic', async () => {
      const basic = Buffer.from(`${client.clientId}:wrong`).toString('base64');
      const response = await request(app.getHttpServer())
        .post(tokenPath())
        .set('Authorization', `Basic ${basic}`)
        .type('form')
        .send(form({ grant_type: 'client_credentials', scope: 'api://orders/.default' }));
      await expectError(response, 401, 'invalid_client', 7000215);
      expect(response.headers['www-authenticate']).toMatch(/^Basic realm="[^"]+"/);
    });

    it('unknown client → 400 unauthorized_client 700016, as Entra answers', async () => {
      await expectError(
        await post({ ...valid(), client_id: '3f2504e0-4f89-11d3-9a0c-0305e82c3301' }),
        400,
        'unauthorized_client',
        700016,
      );
      const response = await post({ ...valid(), client_id: 'not-a-uuid' });
      await expectError(response, 400, 'unauthorized_client', 700016);
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('no credential at all → 401 invalid_client 7000218', async () => {
      const { client_secret: _secret, ...noSecret } = valid();
      await expectError(await post(noSecret), 401, 'invalid_client', 7000218);
      await expectError(await post({ ...valid(), client_secret: '' }), 401, 'invalid_client', 7000218);
      expect((await post(noSecret)).body.error_description).toContain("'client_assertion' or 'client_secret'");
    });

    it('expired secret → 401 invalid_client 7000222', async () => {
      const expiring = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
      await fx.dataSource.query(`UPDATE client_secrets SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
        expiring.secretId,
      ]);
      secrets.push(expiring.secret);
      const response = await post({ ...valid(), client_id: expiring.clientId, client_secret: expiring.secret });
      await expectError(response, 401, 'invalid_client', 7000222);
    });

    it('disabled client → 400 unauthorized_client 7000112, as Entra answers', async () => {
      const disabled = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
      await fx.dataSource.query(`UPDATE api_clients SET state = 'disabled' WHERE id = $1`, [disabled.id]);
      secrets.push(disabled.secret);
      await expectError(
        await post({ ...valid(), client_id: disabled.clientId, client_secret: disabled.secret }),
        400,
        'unauthorized_client',
        7000112,
      );
    });

    it('client awaiting scopes → 400 unauthorized_client 501051', async () => {
      const waiting = await fx.client(tenant.id, { state: 'awaiting_scopes' });
      const secret = await fx.secret(tenant.id, waiting.id);
      secrets.push(secret.value);
      await expectError(
        await post({ ...valid(), client_id: waiting.clientId, client_secret: secret.value }),
        400,
        'unauthorized_client',
        501051,
      );
    });

    it('active client without any grant → 400 unauthorized_client 501051', async () => {
      const bare = await fx.client(tenant.id);
      const secret = await fx.secret(tenant.id, bare.id);
      secrets.push(secret.value);
      await expectError(
        await post({ ...valid(), client_id: bare.clientId, client_secret: secret.value }),
        400,
        'unauthorized_client',
        501051,
      );
    });

  });

  it('clients first seen at the same moment (read together) each get their own answer', async () => {
    const other = await fx.tenant({ lifetime: 900, extLifetime: 1800 });
    const otherOrders = await fx.api(other.id, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    const ready = await Promise.all([
      ...[0, 1, 2, 3, 4, 5].map(() => fx.readyClient(tenant.id, orders, ['Orders.Read'])),
      ...[0, 1].map(() => fx.readyClient(other.id, otherOrders, ['Orders.Read'])),
    ]);
    const stranger = ready.at(-1)!;
    const asks = [
      ...ready.map((c, i) => ({ c, slug: i < 6 ? tenant.slug : other.slug, secret: c.secret })),
      // the other tenant's client at this tenant's endpoint, and a known client with a wrong secret
      { c: stranger, slug: tenant.slug, secret: stranger.secret },
      { c: ready[0]!, slug: tenant.slug, secret: `${ready[0]!.secret}x` },
    ];
    const answers = await Promise.all(
      asks.map(({ c, slug, secret }) =>
        post({ ...valid(), client_id: c.clientId, client_secret: secret }, `/${slug}/oauth2/v2.0/token`),
      ),
    );
    for (const [i, answer] of answers.slice(0, ready.length).entries()) {
      expect(answer.status).toBe(200);
      const claims = JSON.parse(Buffer.from(answer.body.access_token.split('.')[1], 'base64url').toString());
      expect(claims).toMatchObject({ azp: ready[i]!.clientId, oid: ready[i]!.id, roles: ['Orders.Read'] });
    }
    expect(answers.at(-2)!.body).toMatchObject({ error: 'unauthorized_client', error_codes: [700016] });
    expect(answers.at(-1)!.body).toMatchObject({ error: 'invalid_client', error_codes: [7000215] });
  });

  it('trace_id is the request id of the response and of the security log line', async () => {
    const response = await post({ ...valid(), client_secret: 'wrong-again' });
    expect(response.body.trace_id).toBe(response.headers['x-request-id']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = logs.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => String(l.msg).includes(response.body.trace_id));
    expect(line).toBeDefined();
    expect(line!.msg).toContain(`tenant=${tenant.slug}`);
    expect(line!.msg).toContain(`client_id=${client.clientId}`);
    expect(line!.msg).toContain('code=AADSTS7000215');
    expect(line!.level).toBe(40);
  });

  it('no secret value ever reaches the logs', async () => {
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(logs.lines.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(logs.text).not.toContain(secret);
    expect(logs.text).not.toContain('wrong-again');
    expect(logs.text).toContain('token request refused');
  });
});
