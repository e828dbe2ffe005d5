import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';
import { makeAssertion, makeCertificate } from './support/client-certificates.js';
import { ConsoleFixtures } from './support/console.js';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const SOURCE = '198.51.100.59';

/**
 * SECURITY 59 (first half, red-team finding L1): every time value a request carries — `exp`,
 * `nbf`, `iat` of a client assertion, dates in REST queries and console forms, a cursor's
 * position — is range-checked before use. Out of range is a 400 that names the field (the token
 * endpoint answers as Entra answers a malformed assertion, and counts it), never a 500 and
 * never a stack trace in the log.
 */
describe('time values from requests', () => {
  const apps = new AccessApps();
  let auditor: OperatorFixture;
  let clientId: string;
  const certificate = makeCertificate();

  const tokenEndpoint = () => `${apps.publicUrl}/${apps.tenant.tenantId}/oauth2/v2.0/token`;
  const failures = async () =>
    apps.count(`SELECT COALESCE(sum(failures), 0)::int AS n FROM source_throttles WHERE source = $1`, [`token:${SOURCE}`]);

  async function send(assertion: string, client = clientId) {
    const response = await fetch(tokenEndpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': SOURCE },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: assertion,
        scope: 'api://orders/.default',
      }),
    });
    const body = (await response.json()) as { error?: string; error_codes?: number[]; error_description?: string };
    return { status: response.status, error: body.error, code: body.error_codes?.[0], description: body.error_description ?? '' };
  }

  beforeAll(async () => {
    await apps.start({ trustProxy: ['loopback'] }, { listenAdmin: true });
    auditor = await apps.fixtures.operator(apps.tenant, ['Administrator']);
    const contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson']);
    const created = await apps.call('post', '/clients', contact.token, { displayName: 'Clocks' });
    clientId = created.body.clientId;
    const added = await apps.call('post', `/clients/${clientId}/certificates`, auditor.token, { certificate: certificate.pem });
    expect(added.status).toBe(201);
  }, 60_000);

  afterAll(() => apps.stop());

  it('an anonymous assertion with exp 9e15 is a counted 400 invalid_request (AADSTS50027), not a 500', async () => {
    const before = await failures();
    const assertion = await makeAssertion(certificate, {
      clientId: randomUUID(),
      audience: tokenEndpoint(),
      claims: { exp: 9e15 },
    });
    const answer = await send(assertion, JSON.parse(Buffer.from(assertion.split('.')[1]!, 'base64url').toString()).sub);
    expect([answer.status, answer.error, answer.code]).toEqual([400, 'invalid_request', 50027]);
    expect(answer.description).toContain("'exp'");
    expect(await failures()).toBe(before + 1);
  });

  it.each([
    ['exp', { exp: 1e300 }],
    ['exp', { exp: -9e15 }],
    ['nbf', { nbf: 9e15 }],
    ['nbf', { nbf: -1e20 }],
    ['iat', { iat: 8.64e12 + 1, nbf: undefined }],
    ['iat', { iat: 'yesterday', nbf: undefined }],
  ])("a registered client's assertion with an out-of-range %s is a counted 400", async (claim, claims) => {
    const before = await failures();
    const assertion = await makeAssertion(certificate, { clientId, audience: tokenEndpoint(), claims });
    const answer = await send(assertion);
    expect([answer.status, answer.error, answer.code]).toEqual([400, 'invalid_request', 50027]);
    expect(answer.description).toContain(`'${claim}'`);
    expect(await failures()).toBe(before + 1);
  });

  it('an assertion with ordinary times still works', async () => {
    const assertion = await makeAssertion(certificate, { clientId, audience: tokenEndpoint() });
    const answer = await send(assertion);
    // The client has no scope yet: authentication passed, the scope rule answers.
    expect([answer.status, answer.error]).toEqual([400, 'unauthorized_client']);
  });

  it.each([
    ['since', '2026-02-31'],
    ['since', '0000-01-01'],
    ['until', '9999-12-31T23:59:59-14:00'],
    ['until', '2026-13-01T00:00Z'],
    ['since', '2026-01-01T24:30Z'],
  ])('GET /audit-events?%s=%s is a 400 naming the field', async (name, value) => {
    const answer = await apps.call('get', `/audit-events?${name}=${encodeURIComponent(value)}`, auditor.token);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: name, message: expect.stringContaining(name) }]);
  });

  it('the widest dates that exist still work', async () => {
    const answer = await apps.call('get', '/audit-events?since=0001-01-01&until=9999-12-31T23:59:59Z', auditor.token);
    expect(answer.status).toBe(200);
  });

  it('a cursor whose time no date can hold is a 400 invalid_cursor', async () => {
    for (const at of [9e15, -9e15]) {
      const cursor = Buffer.from(JSON.stringify([at, randomUUID()])).toString('base64url');
      const answer = await apps.call('get', `/audit-events?cursor=${cursor}`, auditor.token);
      expect([answer.status, answer.body.code]).toEqual([400, 'invalid_cursor']);
      const users = await apps.call('get', `/users?cursor=${cursor}`, auditor.token);
      expect([users.status, users.body.code]).toEqual([400, 'invalid_cursor']);
    }
  });

  it("the console's audit filter answers a date no calendar has by the field's label", async () => {
    const staff = new ConsoleFixtures(apps.admin, apps.adminUrl!);
    const agent = await staff.signIn(await staff.staff(apps.tenant.tenantId, ['Auditor', 'ContactPerson']));
    const page = await agent.get('/console/audit?since=2026-02-30+10%3A00');
    expect(page.status).toBe(400);
    expect(page.text).toMatch(/From[^<]*(must|is not)/);
    expect(page.text).not.toContain('Since must');
    // A list cursor carrying a time no calendar has starts the list afresh instead of failing the query.
    const mangled = Buffer.from(JSON.stringify(['2026-99-99 99:99:99+00', randomUUID()])).toString('base64url');
    expect((await agent.get(`/console/clients?after=${mangled}`)).status).toBe(200);
  });

  it('left no stack trace and no error in the log', () => {
    expect(apps.logs.text).not.toMatch(/RangeError|Invalid time value|"level":50/);
  });
});
