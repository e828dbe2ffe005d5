import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { TokenEndpointEnv } from './support/token-endpoint-env.js';

/** The token endpoint's answers to a request malformed in itself: grant, parameters, body, encoding, scopes, tenant. */
describe('token endpoint: the request itself', () => {
  const env = new TokenEndpointEnv();
  const { post, valid, expectError, rawRequest, tokenPath, form } = env;
  const { logs } = env;
  let app: TokenEndpointEnv['app'];
  let fx: TokenEndpointEnv['fx'];
  let publicUrl: string;
  let tenant: TokenEndpointEnv['tenant'];
  let client: TokenEndpointEnv['client'];
  beforeAll(() => void ({ app, fx, publicUrl, tenant, client } = env));

  describe('errors in the request itself', () => {
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

});
