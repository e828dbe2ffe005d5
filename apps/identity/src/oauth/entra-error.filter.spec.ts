import { type ArgumentsHost, Logger } from '@nestjs/common';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@gatehouse/config';
import { TokenRequestError, TokenRequestErrorCode } from '@gatehouse/tokens';
import { EntraErrorFilter } from './entra-error.filter.js';
import { entraErrorFor } from './entra-error.js';
import { TokenErrorResponder } from './token-error.responder.js';

/** The part of `ServerResponse` the responder uses. */
class FakeResponse {
  statusCode = 0;
  headers: Record<string, string> = {};
  body: Record<string, unknown> | undefined;
  headersSent = false;
  getHeader(name: string) {
    return this.headers[name];
  }
  writeHead(status: number, headers: Record<string, string | number>) {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers)) this.headers[name] = String(value);
  }
  end(body: string) {
    this.body = JSON.parse(body) as Record<string, unknown>;
  }
}

const REQUEST_ID = '4a1e2f9c-0b7d-4c55-9f0e-3d2c1b0a9f88';

function run(exception: unknown): FakeResponse {
  const filter = new EntraErrorFilter(new TokenErrorResponder({ publicUrl: 'https://id.example.com' } as AppConfig));
  const req = {
    id: REQUEST_ID,
    url: '/acme/v2.0/x?client-request-id=0b6f4c1e-8f3a-4a3b-9e0a-2d4f3c2b1a00',
    headers: {},
    params: { tenant: 'acme' },
  };
  const res = new FakeResponse();
  const host = { switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }) } as unknown as ArgumentsHost;
  filter.catch(exception, host);
  return res;
}

describe('EntraErrorFilter / TokenErrorResponder', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('maps every token error code (exhaustively) to a status and an AADSTS number', () => {
    for (const code of Object.values(TokenRequestErrorCode)) {
      const mapped = entraErrorFor(code);
      expect([400, 401, 405, 429]).toContain(mapped.status);
      expect(mapped.code).toBeGreaterThan(0);
    }
  });

  it('answers with the envelope, the request id as trace_id, and WWW-Authenticate for Basic', () => {
    const res = run(
      new TokenRequestError(TokenRequestErrorCode.InvalidSecret, 'Invalid client secret provided.', { basic: true }),
    );
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="Gatehouse"/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      error: 'invalid_client',
      error_codes: [7000215],
      trace_id: REQUEST_ID,
      correlation_id: '0b6f4c1e-8f3a-4a3b-9e0a-2d4f3c2b1a00',
      error_uri: 'https://id.example.com/error?code=7000215',
    });
  });

  it('a database that cannot be reached → 503 temporarily_unavailable with Retry-After', () => {
    const res = run(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({ error: 'temporarily_unavailable', error_codes: [90033] });
  });

  it('any other fault → 500 with a generic description (no internals)', () => {
    const res = run(new Error('relation "secret_table" does not exist'));
    expect(res.statusCode).toBe(500);
    expect(res.body).toMatchObject({ error: 'server_error', error_codes: [50000] });
    expect(JSON.stringify(res.body)).not.toContain('secret_table');
  });
});
