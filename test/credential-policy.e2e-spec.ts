import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Method = 'get' | 'post' | 'put' | 'patch';
const DAY = 86_400_000;

/**
 * The tenant credential policy and the per-client limits (DESIGN §12) over HTTP: an
 * Administrator sets the policy, a 400-day secret is then refused naming the rule while the
 * old one keeps working; a token request from outside the client's ranges is refused as Entra's
 * Conditional Access refuses it and one from inside works (the address as seen through
 * TRUST_PROXY); beyond the quota 429 with Retry-After, another client untouched; bad input names
 * the field and writes nothing.
 */
describe('credential policy and client limits', () => {
  let database: TestDatabase;
  let admin: INestApplication;
  let identity: INestApplication;
  let tenant: TenantFixture;
  let administrator: OperatorFixture;
  let contact: OperatorFixture;
  let it_: OperatorFixture;
  let baseUrl: string;

  const call = (method: Method, path: string, token: string, body?: unknown) => {
    const req = request(admin.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${token}`);
    return body === undefined ? req : req.send(body as object);
  };
  const token = (clientId: string, secret: string, source: string) =>
    fetch(`${baseUrl}/${tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': source },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: 'api://orders/.default' }),
    });
  /** Changes reach the identity app's cache through Postgres notifications: wait until one shows. */
  async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    for (let i = 0; ; i++) {
      const value = await read();
      if (ok(value) || i >= 40) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  async function readyClient(name: string, expiresInDays = 90): Promise<{ clientId: string; secret: string }> {
    const { clientId } = (await call('post', '/clients', contact.token, { displayName: name })).body;
    expect((await call('put', `/clients/${clientId}/scopes`, it_.token, { scopes: ['api://orders/Orders.Read'] })).status).toBe(200);
    const secret = await call('post', `/clients/${clientId}/secrets`, contact.token, { expiresInDays });
    expect(secret.status).toBe(201);
    return { clientId, secret: secret.body.secretText };
  }
  const auditOf = async (action: string, target: string) =>
    (await call('get', `/audit-events?action=${action}&target=${target}`, administrator.token)).body.items as Array<{ details: Record<string, unknown> }>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const config = testConfig(database.url, { publicUrl: baseUrl, trustProxy: ['loopback'] });
    admin = await createAdminApp({ config, logDestination: new LogCapture() });
    identity = await createIdentityApp({ config, logDestination: new LogCapture() });
    await identity.listen(port, '127.0.0.1');
    const fixtures = new AdminFixtures(admin, config);
    tenant = await fixtures.tenant();
    administrator = await fixtures.operator(tenant, ['Administrator']);
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    it_ = await fixtures.operator(tenant, ['ITDepartment']);
    const api = await call('post', '/apis', administrator.token, { identifier: 'api://orders', displayName: 'Orders' });
    expect((await call('post', `/apis/${api.body.id}/scopes`, administrator.token, { value: 'Orders.Read', description: 'read' })).status).toBe(201);
  });

  afterAll(async () => {
    await identity?.close();
    await admin?.close();
    await database?.drop();
  });

  it('starts with the defaults, which refuse and flag nothing', async () => {
    const policy = await call('get', '/credential-policy', administrator.token);
    expect(policy.status).toBe(200);
    expect(policy.body).toEqual({
      maxSecretLifetimeDays: 730,
      maxCertificateLifetimeDays: null,
      allowedCredentialKinds: ['secret', 'certificate', 'federated'],
      effectiveFrom: null,
      staleCredentialDays: 90,
      disableStaleCredentials: false,
    });
    expect((await call('get', '/credential-policy', contact.token)).status).toBe(403);
    expect((await call('put', '/credential-policy', it_.token, { maxSecretLifetimeDays: 90 })).status).toBe(403);
  });

  it('refuses bad policies naming the field, and writes nothing', async () => {
    const bad: Array<[object, string]> = [
      [{ maxSecretLifetimeDays: 731 }, 'maxSecretLifetimeDays'],
      [{ maxSecretLifetimeDays: 0 }, 'maxSecretLifetimeDays'],
      [{ maxCertificateLifetimeDays: -5 }, 'maxCertificateLifetimeDays'],
      [{ maxCertificateLifetimeDays: 3651 }, 'maxCertificateLifetimeDays'],
      [{ allowedCredentialKinds: ['secret', 'password'] }, 'allowedCredentialKinds'],
      [{ allowedCredentialKinds: [] }, 'allowedCredentialKinds'],
      [{ effectiveFrom: 'next tuesday' }, 'effectiveFrom'],
      [{ staleCredentialDays: -1 }, 'staleCredentialDays'],
    ];
    for (const [body, field] of bad) {
      const answer = await call('put', '/credential-policy', administrator.token, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await call('get', '/credential-policy', administrator.token)).body.effectiveFrom).toBeNull();
    expect(await auditOf('tenant.credential_policy.updated', tenant.tenantId)).toEqual([]);
  });

  it('refuses a 400-day secret once the policy is in effect, and leaves the old one working', async () => {
    const old = await readyClient('Orders sync', 400);
    const put = await call('put', '/credential-policy', administrator.token, {
      maxSecretLifetimeDays: 180,
      maxCertificateLifetimeDays: 365,
      allowedCredentialKinds: ['secret', 'certificate'],
      effectiveFrom: new Date(Date.now() - 1000).toISOString(),
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ maxSecretLifetimeDays: 180, allowedCredentialKinds: ['secret', 'certificate'], staleCredentialDays: 90 });
    const [event] = await auditOf('tenant.credential_policy.updated', tenant.tenantId);
    expect(event?.details).toMatchObject({ before: { effectiveFrom: null }, after: { maxSecretLifetimeDays: 180 } });

    const refused = await call('post', `/clients/${old.clientId}/secrets`, contact.token, { expiresInDays: 400 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'outside_credential_policy', rule: 'maxSecretLifetimeDays', errors: [{ field: 'expiresInDays' }] });
    expect(refused.body.detail).toContain('at most 180 days');
    const capped = await call('post', `/clients/${old.clientId}/secrets`, contact.token, {});
    expect(capped.status).toBe(201);
    expect(Date.parse(capped.body.expiresAt) - Date.now()).toBeLessThanOrEqual(180 * DAY);
    const federated = await call('post', `/clients/${old.clientId}/federated-credentials`, contact.token, {
      name: 'github',
      issuer: 'https://token.actions.githubusercontent.com',
      subject: 'repo:contoso/orders:ref:refs/heads/main',
    });
    expect(federated.status).toBe(400);
    expect(federated.body).toMatchObject({ code: 'outside_credential_policy', rule: 'allowedCredentialKinds' });
    const handover = await call('post', `/clients/${old.clientId}/handovers`, contact.token, { recipientEmail: 'dev@partner.example' });
    expect(handover.status).toBe(201);

    const issued = await token(old.clientId, old.secret, '192.0.2.10');
    expect(issued.status).toBe(200);
  });

  it('refuses a token request from outside the allowed ranges as Entra does, and takes one from inside', async () => {
    const client = await readyClient('Ranged sync');
    const patched = await call('patch', `/clients/${client.clientId}`, it_.token, { allowedSourceRanges: ['203.0.113.0/24', '2001:db8::/32', '10.1.2.3/8'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ allowedSourceRanges: ['203.0.113.0/24', '2001:db8::/32', '10.0.0.0/8'], tokensPerHour: null });

    const outside = await eventually(() => token(client.clientId, client.secret, '198.51.100.7'), (r) => r.status !== 200);
    expect(outside.status).toBe(400);
    const body = (await outside.json()) as { error: string; error_codes: number[]; error_description: string };
    expect(body.error).toBe('invalid_client');
    expect(body.error_codes).toEqual([53003]);
    expect(body.error_description).toMatch(/^AADSTS53003: Access has been blocked by Conditional Access policies\. The access policy does not allow token issuance\./);
    expect((await token(client.clientId, client.secret, '203.0.113.99')).status).toBe(200);
    expect((await token(client.clientId, client.secret, '2001:db8:5::1')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await token(client.clientId, client.secret, '198.51.100.7')).status).toBe(400);
    expect((await token(client.clientId, client.secret, '198.51.100.8')).status).toBe(400);

    const refusals = await auditOf('client.token.source_refused', client.clientId);
    expect(refusals.map((e) => e.details.source).sort()).toEqual(['198.51.100.7', '198.51.100.8']);

    expect((await call('patch', `/clients/${client.clientId}`, it_.token, { allowedSourceRanges: null })).status).toBe(200);
    expect((await eventually(() => token(client.clientId, client.secret, '198.51.100.7'), (r) => r.status === 200)).status).toBe(200);
  });

  it('answers 429 with Retry-After beyond the quota, and leaves another client untouched', async () => {
    const limited = await readyClient('Quota sync');
    const other = await readyClient('Other sync');
    expect((await call('patch', `/clients/${limited.clientId}`, it_.token, { tokensPerHour: 3 })).status).toBe(200);
    await eventually(() => call('get', `/clients/${limited.clientId}`, it_.token), (r) => r.body.tokensPerHour === 3);
    // The first request after the change may still meet the cached client (no quota yet): wait for the refusal.
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await token(limited.clientId, limited.secret, '192.0.2.20')).status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(3);
    const over = await token(limited.clientId, limited.secret, '192.0.2.20');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(((await over.json()) as { error_codes: number[] }).error_codes).toEqual([90055]);
    for (let i = 0; i < 5; i++) expect((await token(other.clientId, other.secret, '192.0.2.20')).status).toBe(200);
    expect(await auditOf('client.token.quota_exceeded', limited.clientId)).toHaveLength(1);
  });

  it('refuses ranges that do not parse and quotas of 0 or less, naming the field, writing nothing', async () => {
    const { clientId } = (await call('post', '/clients', contact.token, { displayName: 'Bad input sync' })).body;
    const bad: Array<[object, string]> = [
      [{ allowedSourceRanges: ['10.0.0.0/33'] }, 'allowedSourceRanges'],
      [{ allowedSourceRanges: ['10.1/8'] }, 'allowedSourceRanges'],
      [{ allowedSourceRanges: ['203.0.113.0/24', 'example.com'] }, 'allowedSourceRanges'],
      [{ allowedSourceRanges: ['2001:db8::/129'] }, 'allowedSourceRanges'],
      [{ tokensPerHour: 0 }, 'tokensPerHour'],
      [{ tokensPerHour: -1 }, 'tokensPerHour'],
      [{ tokensPerHour: 1.5 }, 'tokensPerHour'],
    ];
    for (const [body, field] of bad) {
      const answer = await call('patch', `/clients/${clientId}`, it_.token, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const after = await call('get', `/clients/${clientId}`, it_.token);
    expect(after.body).toMatchObject({ allowedSourceRanges: null, tokensPerHour: null });
    expect(await auditOf('client.limits.updated', clientId)).toEqual([]);
    expect((await call('patch', `/clients/${clientId}`, contact.token, { tokensPerHour: 5 })).status).toBe(403);
  });
});
