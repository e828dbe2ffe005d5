import { connect } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsRegistry } from '@gatehouse/http';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('token endpoint', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fx: TokenFixtures;
  let publicUrl: string;
  const logs = new LogCapture();
  const secrets: string[] = [];
  let tenant: { id: string; slug: string };
  let orders: Awaited<ReturnType<TokenFixtures['api']>>;
  let client: Awaited<ReturnType<TokenFixtures['readyClient']>>;

  const tokenPath = () => `/${tenant.slug}/oauth2/v2.0/token`;
  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const post = (fields: Record<string, string>, path = tokenPath()) =>
    request(app.getHttpServer()).post(path).type('form').send(form(fields));
  const valid = () => ({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.secret,
    scope: 'api://orders/.default',
  });

  async function expectError(response: request.Response, status: number, error: string, code: number) {
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ error, error_codes: [code] });
    expect(response.body.error_description).toMatch(
      new RegExp(
        `^AADSTS${code}: .+ Trace ID: [0-9a-f-]{36} Correlation ID: [0-9a-f-]{36} Timestamp: \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ$`,
      ),
    );
    expect(response.body.timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/);
    expect(response.body.trace_id).toMatch(UUID);
    expect(response.body.correlation_id).toMatch(UUID);
    expect(response.body.error_uri).toBe(`${publicUrl}/error?code=${code}`);
    expect(response.headers['cache-control']).toBe('no-store');
  }

  /** Writes a raw HTTP/1.1 request in pieces (a pause between them) and resolves with the raw answer. */
  function rawRequest(pieces: string[], options: { hangUp?: boolean } = {}): Promise<string> {
    const address = app.getHttpServer().address() as { port: number };
    return new Promise((resolve, reject) => {
      const socket = connect(address.port, '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (answer += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
      socket.on('connect', async () => {
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((next) => setTimeout(next, 20));
        }
        if (options.hangUp) socket.destroy();
        else socket.end();
      });
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, { publicUrl });
    app = await createIdentityApp({ config, logDestination: logs });
    await app.listen(port, '127.0.0.1');
    fx = new TokenFixtures(app, config.secretPepper);
    tenant = await fx.tenant({ lifetime: 900, extLifetime: 1800 });
    orders = await fx.api(tenant.id, {
      identifier: 'api://orders',
      scopes: ['Orders.Read', 'Orders.Write', 'Orders.Admin'],
    });
    client = await fx.readyClient(tenant.id, orders, ['Orders.Read', 'Orders.Write']);
    secrets.push(client.secret);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

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

    it('invalid UTF-8 and control characters in the input are never echoed as they came (answer and log)', async () => {
      const raw = Buffer.concat([
        Buffer.from('grant_type=client_credentials&client_secret=x&scope=api%3A%2F%2Forders%2F.default&client_id=ab'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('%0D%0Aforged%1B%5B31m%E2%80%AE'),
        Buffer.from('y'.repeat(300)),
      ]);
      const answer = await fetch(`${publicUrl}${tokenPath()}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: raw,
      });
      const response = {
        status: answer.status,
        body: (await answer.json()) as Record<string, string>,
        headers: { 'cache-control': answer.headers.get('cache-control') },
      };
      await expectError(response as unknown as request.Response, 400, 'unauthorized_client', 700016);
      const description: string = response.body.error_description;
      expect(description).not.toMatch(/[\u0000-\u001f\u007f\u202e\ufffd]/);
      expect(description).toContain("'ab????forged?[31m?");
      expect(description).not.toContain('y'.repeat(101));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const line = logs.lines.find((l) => l.includes(response.body.trace_id))!;
      const msg = String((JSON.parse(line) as { msg: string }).msg);
      expect(msg).not.toMatch(/[\u0000-\u001f\u007f\u202e\ufffd]/);
      expect(msg).toContain('client_id=ab????forged?[31m?');
      const duplicated = await request(app.getHttpServer())
        .post(tokenPath())
        .type('form')
        .send(`${form(valid())}&x%0A%FF=1&x%0A%FF=2`);
      expect(duplicated.body.error_description).toContain("parameter 'x??' more than once");
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

    it('other grant type → 400 unsupported_grant_type 70003', async () => {
      await expectError(await post({ ...valid(), grant_type: 'password' }), 400, 'unsupported_grant_type', 70003);
    });

    it('missing or empty parameter → 400 invalid_request 900144', async () => {
      const { scope: _scope, ...noScope } = valid();
      await expectError(await post(noScope), 400, 'invalid_request', 900144);
      await expectError(await post({ ...valid(), client_id: '' }), 400, 'invalid_request', 900144);
      await expectError(await post({ ...valid(), grant_type: '' }), 400, 'invalid_request', 900144);
    });

    it('duplicated parameter → 400 invalid_request 90014', async () => {
      const body = `${form(valid())}&scope=api%3A%2F%2Forders%2F.default`;
      const response = await request(app.getHttpServer()).post(tokenPath()).type('form').send(body);
      await expectError(response, 400, 'invalid_request', 90014);
    });

    it('wrong content type → 400 invalid_request 90014', async () => {
      const response = await request(app.getHttpServer()).post(tokenPath()).type('json').send(JSON.stringify(valid()));
      await expectError(response, 400, 'invalid_request', 90014);
    });

    it('body over 16 KiB → 400 invalid_request 90014', async () => {
      await expectError(await post({ ...valid(), padding: 'x'.repeat(17_000) }), 400, 'invalid_request', 90014);
    });

    it('a chunked body that grows past 16 KiB → 400 invalid_request, without reading the rest', async () => {
      const head = `POST ${tokenPath()} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
      const chunk = (text: string) => `${text.length.toString(16)}\r\n${text}\r\n`;
      const pieces = [
        head,
        chunk(`${form(valid())}&padding=`),
        ...Array.from({ length: 5 }, () => chunk('x'.repeat(4000))),
        '0\r\n\r\n',
      ];
      const answer = await rawRequest(pieces);
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toContain('"error_codes":[90014]');
    });

    it('Basic and client_secret together → 400 invalid_request 90014', async () => {
      const basic = Buffer.from(`${client.clientId}:${client.secret}`).toString('base64');
      const response = await request(app.getHttpServer())
        .post(tokenPath())
        .set('Authorization', `Basic ${basic}`)
        .type('form')
        .send(form(valid()));
      await expectError(response, 400, 'invalid_request', 90014);
    });

    it('malformed Basic (bad base64, no colon) → 400 invalid_request 90014', async () => {
      for (const header of [
        'Basic %%%notbase64',
        `Basic ${Buffer.from('no-colon-here').toString('base64')}`,
        'Basic ',
      ]) {
        const response = await request(app.getHttpServer())
          .post(tokenPath())
          .set('Authorization', header)
          .type('form')
          .send(form({ grant_type: 'client_credentials', scope: 'api://orders/.default' }));
        await expectError(response, 400, 'invalid_request', 90014);
      }
    });

    it('client_secret in the query string → 400 invalid_request, and never logged', async () => {
      const response = await request(app.getHttpServer())
        .post(`${tokenPath()}?client_secret=${encodeURIComponent(client.secret)}`)
        .type('form')
        .send(form({ grant_type: 'client_credentials', client_id: client.clientId, scope: 'api://orders/.default' }));
      await expectError(response, 400, 'invalid_request', 90014);
    });

    it('client_assertion in the query string → 400 invalid_request 90014', async () => {
      const response = await request(app.getHttpServer())
        .post(`${tokenPath()}?client_assertion=eyJhbGciOi.x.y&client_assertion_type=urn%3Aietf%3Aparams`)
        .type('form')
        .send(form(valid()));
      await expectError(response, 400, 'invalid_request', 90014);
    });

    it('GET on the token endpoint → 405 Entra-shaped', async () => {
      const response = await request(app.getHttpServer()).get(`${tokenPath()}?client_id=${client.clientId}`);
      await expectError(response, 405, 'invalid_request', 900561);
      expect(response.headers.allow).toBe('POST');
    });

    it('unknown tenant → 400 invalid_request 90002', async () => {
      await expectError(await post(valid(), '/no-such-tenant/oauth2/v2.0/token'), 400, 'invalid_request', 90002);
      await expectError(
        await post(valid(), '/0b6f4c1e-8f3a-4a3b-9e0a-2d4f3c2b1a99/oauth2/v2.0/token'),
        400,
        'invalid_request',
        90002,
      );
    });

    it('unknown scope, scope not granted, malformed scope → 400 invalid_scope 70011; unknown API → 400 invalid_resource 500011', async () => {
      await expectError(await post({ ...valid(), scope: 'api://billing/.default' }), 400, 'invalid_resource', 500011);
      for (const scope of [
        'api://orders/Orders.Delete',
        'api://orders/Orders.Admin',
        'Orders.Read',
        'api://orders/',
      ]) {
        await expectError(await post({ ...valid(), scope }), 400, 'invalid_scope', 70011);
      }
    });

    it('scopes of two APIs → 400 invalid_scope 700022', async () => {
      await fx.api(tenant.id, { identifier: 'api://billing', scopes: ['Billing.Read'] });
      const response = await post({ ...valid(), scope: 'api://orders/Orders.Read api://billing/Billing.Read' });
      await expectError(response, 400, 'invalid_scope', 700022);
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
