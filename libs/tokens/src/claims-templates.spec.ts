import { describe, expect, it } from 'vitest';
import type { Tenant } from '@gatehouse/tenants';
import { type ClaimsOf, ClaimsTemplates } from './claims-templates.js';
import type { ApiRow, ClientSnapshot } from './client-credentials.repository.js';
import { constantClaimsJson } from './compact-jws.js';

const tenant = { id: '6d1f3a52-8f7e-4a43-9d1b-2b8f0e6c1a01' } as Tenant;
const api: ApiRow = {
  id: 'a1',
  appId: '0e535d06-1d42-4ea1-8e1f-e443fa26b709',
  identifier: 'api://orders',
  builtIn: false,
  scopes: ['Orders.Read', 'Orders.Write'],
  accessTokenVersion: 2,
  accessTokenTyp: 'JWT',
};

function snapshot(id: string, clientId: string): ClientSnapshot {
  const client = { id, clientId, state: 'active' as const, ownerUserId: null, ownerStatus: null, ownerRoles: [] };
  return { client, secrets: [], certificates: [], grants: new Map(), limits: null };
}

/** The claims as the grant writes them, and how often it was asked. */
function writer() {
  const calls: string[] = [];
  const claimsOf: ClaimsOf = (t, s, a, scopes, method) => {
    calls.push(s.client.id);
    return { aud: a.appId, sub: s.client.id, client_id: s.client.clientId, azpacr: method, tid: t.id, roles: scopes };
  };
  return { calls, claimsOf };
}

const expected = (s: ClientSnapshot, scopes: readonly string[], method: '1' | '2') =>
  constantClaimsJson({
    aud: api.appId,
    sub: s.client.id,
    client_id: s.client.clientId,
    azpacr: method,
    tid: tenant.id,
    roles: scopes,
  });

describe('ClaimsTemplates', () => {
  const a = snapshot('11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222');
  const b = snapshot('33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444');

  it('writes what JSON.stringify writes, for every client from one template per API, method and scopes', () => {
    const { calls, claimsOf } = writer();
    const templates = new ClaimsTemplates(claimsOf);
    const scopes = ['Orders.Read'];
    expect(templates.constantJson(tenant, a, api, scopes, '1')).toBe(expected(a, scopes, '1'));
    expect(templates.constantJson(tenant, b, api, scopes, '1')).toBe(expected(b, scopes, '1'));
    expect(templates.constantJson(tenant, a, api, ['Orders.Read'], '1')).toBe(expected(a, scopes, '1'));
    expect(calls).toHaveLength(1);
    expect(templates.constantJson(tenant, a, api, scopes, '2')).toBe(expected(a, scopes, '2'));
    expect(templates.constantJson(tenant, a, api, ['Orders.Read', 'Orders.Write'], '2')).toBe(
      expected(a, ['Orders.Read', 'Orders.Write'], '2'),
    );
    expect(calls).toHaveLength(3);
  });

  it('answers a client asking again with the same JSON, and a changed client (a new row) with its new ids', () => {
    const { claimsOf } = writer();
    const templates = new ClaimsTemplates(claimsOf);
    const scopes = ['Orders.Read'];
    const first = templates.constantJson(tenant, a, api, scopes, '1');
    expect(templates.constantJson(tenant, a, api, scopes, '1')).toBe(first);
    const renamed = snapshot(a.client.id, '55555555-5555-4555-8555-555555555555');
    expect(templates.constantJson(tenant, renamed, api, scopes, '1')).toBe(expected(renamed, scopes, '1'));
    expect(templates.constantJson(tenant, a, { ...api }, ['Orders.Write'], '1')).toBe(
      expected(a, ['Orders.Write'], '1'),
    );
  });

  it('writes ids that JSON escapes, or that look like its stand-ins, with JSON.stringify', () => {
    const { claimsOf } = writer();
    const templates = new ClaimsTemplates(claimsOf);
    for (const odd of [snapshot('quote"id', 'back\\slash'), snapshot('@@gatehouse-client-id@@', 'x')]) {
      expect(templates.constantJson(tenant, odd, api, ['Orders.Read'], '1')).toBe(expected(odd, ['Orders.Read'], '1'));
    }
  });
});
