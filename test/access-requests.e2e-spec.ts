import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessDecisionService } from '@gatehouse/provisioning';
import { AccessRequestError, AccessRequestErrorCode } from '@gatehouse/requests';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const filed = (email: string, extra: Json = {}) => ({
  requesterName: 'Pat Partner',
  requesterEmail: email,
  organisation: 'Partner Ltd',
  account: { documentation: 'The API guide', reason: 'I build the integration.' },
  ...extra,
});

/** Access requests through the admin API: filing, reading, deciding, and every refusal. */
describe('access requests: filing, decisions and bad input', () => {
  const apps = new AccessApps();
  let administrator: OperatorFixture;
  let contact: OperatorFixture;
  let colleague: OperatorFixture;
  let it_: OperatorFixture;
  let auditor: OperatorFixture;

  const call = (method: 'get' | 'post', path: string, token: string, body?: unknown) =>
    apps.call(method, path, token, body);
  const count = (sql: string, params: unknown[] = []) => apps.count(sql, params);
  const snapshot = () =>
    Promise.all(
      ['access_requests', 'users', 'api_clients', 'invitations', 'emails'].map((t) =>
        count(`SELECT count(*)::int AS n FROM ${t}`),
      ),
    );

  beforeAll(async () => {
    await apps.start();
    administrator = await apps.fixtures.operator(apps.tenant, ['Administrator']);
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'carla');
    colleague = await apps.fixtures.operator(apps.tenant, ['ContactPerson'], 'colin');
    it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment']);
    auditor = await apps.fixtures.operator(apps.tenant, ['Auditor']);
    const section = { slug: 'api-guide', title: 'API guide', body: 'x' };
    expect((await call('post', '/doc-sections', contact.token, section)).status).toBe(201);
  }, 60_000);

  afterAll(() => apps.stop());

  it('staff file a request for someone: it starts submitted, the other contact persons are told; IT and auditors read, only contact persons decide', async () => {
    const created = await call('post', '/access-requests', contact.token, filed('filed@partner.example'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      status: 'submitted',
      origin: 'staff',
      filedByUserId: contact.user.id,
      api: null,
    });
    const told = (await apps.deliver()).filter((m) => m.subject.includes('access request from Pat Partner'));
    expect(told.map((m) => m.envelopeTo[0])).toEqual([colleague.user.email]);
    expect((await call('get', `/access-requests/${created.body.id}`, it_.token)).status).toBe(200);
    expect((await call('get', '/access-requests?status=submitted', auditor.token)).body.items).toHaveLength(1);
    expect((await call('post', `/access-requests/${created.body.id}/approve`, it_.token, {})).status).toBe(403);
    expect((await call('post', '/access-requests', auditor.token, filed('x@partner.example'))).status).toBe(403);
  });

  it('rejects with a note that the requester receives; a decided request is not decided again', async () => {
    const { body } = await call('post', '/access-requests', contact.token, filed('rejected@partner.example'));
    const missing = await call('post', `/access-requests/${body.id}/reject`, contact.token, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([{ field: 'note', message: expect.stringContaining('1 to 2000 characters') }]);
    const rejected = await call('post', `/access-requests/${body.id}/reject`, contact.token, {
      note: 'Please ask through your account manager.',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({
      status: 'rejected',
      decisionNote: 'Please ask through your account manager.',
    });
    const [mail] = (await apps.deliver()).filter((m) => m.envelopeTo.includes('rejected@partner.example'));
    expect(mail!.subject).toBe('default: your access request was not approved');
    expect(mail!.text).toContain('Please ask through your account manager.');
    const again = await call('post', `/access-requests/${body.id}/approve`, contact.token, {});
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('access_request_not_submitted');
  });

  it('refuses bad input with a clear message per field and writes nothing', async () => {
    const before = await snapshot();
    const crlf = await call(
      'post',
      '/access-requests',
      contact.token,
      filed('pat@partner.example\r\nBcc: all@example.com'),
    );
    expect(crlf.status).toBe(400);
    expect(crlf.body.errors).toEqual([
      { field: 'requesterEmail', message: 'Enter one email address, such as name@example.com.' },
    ]);
    const technical = await call('post', '/access-requests', contact.token, {
      ...filed('ok@partner.example'),
      api: { systemName: 'Sync\nBcc', technicalContactEmail: 'ops@partner.example\n', purpose: 'x' },
    });
    expect(technical.status).toBe(400);
    expect(technical.body.errors.map((e: Json) => e.field).sort()).toEqual([
      'api.systemName',
      'api.technicalContactEmail',
    ]);
    const neither = await call('post', '/access-requests', contact.token, {
      ...filed('ok@partner.example'),
      account: undefined,
    });
    expect(neither.status).toBe(400);
    expect(neither.body.errors).toEqual([
      { field: 'kind', message: 'Choose a personal account, API access for a system, or both.' },
    ]);
    const unknown = await call('post', '/access-requests', contact.token, {
      ...filed('ok@partner.example'),
      status: 'approved',
    });
    expect(unknown.status).toBe(400);
    const long = await call(
      'post',
      '/access-requests',
      contact.token,
      filed('ok@partner.example', { requesterName: 'x'.repeat(201) }),
    );
    expect(long.body.errors).toEqual([
      { field: 'requesterName', message: 'Enter your name (1 to 200 characters, one line).' },
    ]);
    expect(await snapshot()).toEqual(before);
  });

  it('an unknown section or sections for an API-only request refuse the approval, and nothing is written', async () => {
    const { body } = await call('post', '/access-requests', contact.token, filed('sections@partner.example'));
    const apiOnly = await call('post', '/access-requests', contact.token, {
      ...filed('api-only@partner.example'),
      account: undefined,
      api: { systemName: 'Billing', technicalContactEmail: 'ops@partner.example', purpose: 'Reads invoices' },
    });
    const before = await snapshot();
    const unknown = await call('post', `/access-requests/${body.id}/approve`, contact.token, {
      sections: ['api-guide', 'nope'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'invitation_unknown_sections',
      errors: [{ field: 'sections', message: 'unknown section: nope' }],
    });
    const wrong = await call('post', `/access-requests/${apiOnly.body.id}/approve`, contact.token, {
      sections: ['api-guide'],
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('access_request_no_account_requested');
    expect(await snapshot()).toEqual(before);
    expect((await call('get', `/access-requests/${body.id}`, contact.token)).body.status).toBe('submitted');
  });

  it('a disabled approver decides nothing, through the API or the use case itself', async () => {
    const { body } = await call('post', '/access-requests', contact.token, filed('disabled@partner.example'));
    const decider = await apps.fixtures.operator(apps.tenant, ['ContactPerson']);
    expect((await call('post', `/users/${decider.user.id}/disable`, administrator.token)).status).toBe(200);
    const before = await snapshot();
    expect((await call('post', `/access-requests/${body.id}/approve`, decider.token, {})).status).toBe(401);
    const actor = {
      type: 'user' as const,
      userId: decider.user.id,
      clientId: decider.clientId,
      permissions: ['Requests.Decide'],
    };
    const refused = apps.admin.get(AccessDecisionService).approve(apps.tenant.tenantId, actor, body.id, {});
    await expect(refused).rejects.toBeInstanceOf(AccessRequestError);
    await expect(refused).rejects.toMatchObject({ code: AccessRequestErrorCode.DeciderDisabled });
    expect(await snapshot()).toEqual(before);
  });

  it('a double-submitted approval approves once: one user, one client, one decision', async () => {
    const { body } = await call('post', '/access-requests', contact.token, {
      ...filed('twice@partner.example'),
      api: { systemName: 'Twice sync', technicalContactEmail: 'ops@partner.example', purpose: 'Reads orders' },
    });
    const answers = await Promise.all(
      [1, 2].map(() => call('post', `/access-requests/${body.id}/approve`, contact.token, { sections: ['api-guide'] })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await count(`SELECT count(*)::int AS n FROM users WHERE email = 'twice@partner.example'`)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM api_clients WHERE display_name = 'Twice sync'`)).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM invitations i JOIN users u ON u.id = i.user_id WHERE u.email = 'twice@partner.example'`,
      ),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*)::int AS n FROM audit_events WHERE action = 'access_request.approved' AND target_id = $1`,
        [body.id],
      ),
    ).toBe(1);
    const approved = (await call('get', `/access-requests/${body.id}`, contact.token)).body;
    expect(approved).toMatchObject({
      status: 'approved',
      userId: expect.any(String),
      clientId: expect.any(String),
      invitationId: expect.any(String),
    });
    const user = (await call('get', `/users/${approved.userId}`, contact.token)).body;
    expect(user).toMatchObject({ username: 'twice@partner.example', roles: [], displayName: 'Pat Partner' });
  });
});
