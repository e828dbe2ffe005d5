import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { cli } from './support/operator-cli.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Method = 'get' | 'post' | 'patch' | 'delete';

const GITHUB = 'https://token.actions.githubusercontent.com';
const BRANCHES = { value: "claims['sub'] matches 'repo:contoso/orders:ref:refs/heads/*'", languageVersion: 1 };

/**
 * Federated credentials through the admin API (DESIGN §11): Secrets.Manage, the operator-client
 * rule of every credential, names unique per client, at most 20, exactly one of subject and
 * Entra's claims-matching expression (a 400 naming the part it cannot read), Entra's default
 * audience, and an audit event for every change.
 */
describe('admin API: federated credentials', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let admin: OperatorFixture;
  let contact: OperatorFixture;
  let auditor: OperatorFixture;
  let partnerClientId: string;
  let tenant: TenantFixture;
  let config: ReturnType<typeof testConfig>;

  const call = (method: Method, path: string, token: string, body?: unknown) => {
    const req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${token}`);
    return body === undefined ? req : req.send(body as object);
  };
  const credentials = (clientId: string) => `/clients/${clientId}/federated-credentials`;

  beforeAll(async () => {
    database = await createTestDatabase();
    config = testConfig(database.url);
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    const fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    admin = await fixtures.operator(tenant, ['Administrator']);
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    auditor = await fixtures.operator(tenant, ['Auditor']);
    partnerClientId = (await call('post', '/clients', contact.token, { displayName: 'Orders sync' })).body.clientId;
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it("adds a credential with Entra's default audience, lists it, and audits it", async () => {
    const added = await call('post', credentials(partnerClientId), contact.token, {
      name: 'github-production',
      issuer: GITHUB,
      subject: 'repo:contoso/orders:environment:production',
      description: 'deploy job',
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'github-production',
      issuer: GITHUB,
      subject: 'repo:contoso/orders:environment:production',
      claimsMatchingExpression: null,
      audiences: ['api://AzureADTokenExchange'],
      description: 'deploy job',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastUsedAt: null,
      lastUsedFrom: null,
      disabledAt: null,
    });
    const flexible = await call('post', credentials(partnerClientId), contact.token, {
      name: 'github-branches',
      issuer: GITHUB,
      claimsMatchingExpression: BRANCHES,
      audiences: ['api://gatehouse-orders'],
    });
    expect(flexible.status).toBe(201);
    expect(flexible.body).toMatchObject({ subject: null, claimsMatchingExpression: BRANCHES, audiences: ['api://gatehouse-orders'] });
    const listed = await call('get', credentials(partnerClientId), auditor.token);
    expect(listed.status).toBe(200);
    expect(listed.body.map((c: { name: string }) => c.name)).toEqual(['github-production', 'github-branches']);
    const audit = await call('get', '/audit-events?action=client.federated_credential.added', auditor.token);
    expect(audit.body.items).toHaveLength(2);
    expect(audit.body.items[1]).toMatchObject({
      targetType: 'client',
      targetId: partnerClientId,
      details: { name: 'github-production', issuer: GITHUB, subject: 'repo:contoso/orders:environment:production' },
    });
  });

  it('refuses a second credential of the same name, and a 21st', async () => {
    const again = await call('post', credentials(partnerClientId), contact.token, { name: 'github-production', issuer: GITHUB, subject: 'x' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('federated_credential_name_taken');
    const crowded = (await call('post', '/clients', contact.token, { displayName: 'Crowded' })).body.clientId as string;
    for (let i = 0; i < 20; i++) {
      const added = await call('post', credentials(crowded), contact.token, { name: `k8s-${i}`, issuer: 'https://k8s.example', subject: `system:serviceaccount:ns:sa-${i}` });
      expect(added.status).toBe(201);
    }
    const past = await call('post', credentials(crowded), contact.token, { name: 'k8s-20', issuer: 'https://k8s.example', subject: 'system:serviceaccount:ns:x' });
    expect(past.status).toBe(409);
    expect(past.body.code).toBe('federated_credential_limit');
  });

  it('refuses a body that is not exactly one of subject and expression, or an expression it cannot read, naming the part', async () => {
    const post = (body: object) => call('post', credentials(partnerClientId), contact.token, { name: 'bad', issuer: GITHUB, ...body });
    const neither = await post({});
    expect(neither.status).toBe(400);
    expect(neither.body.errors).toEqual([{ field: 'subject', message: 'Give exactly one of subject and claimsMatchingExpression.' }]);
    expect((await post({ subject: 'a', claimsMatchingExpression: BRANCHES })).status).toBe(400);
    const orExpression = await post({ claimsMatchingExpression: { value: "claims['sub'] eq 'a' or claims['sub'] eq 'b'", languageVersion: 1 } });
    expect(orExpression.status).toBe(400);
    expect(orExpression.body.code).toBe('federated_credential_invalid');
    expect(orExpression.body.errors).toEqual([
      {
        field: 'claimsMatchingExpression.value',
        message: `Could not read " or claims['sub'] eq 'b'" at character 21: clauses are joined by ' and ' (the only other word of the language)`,
      },
    ]);
    const operator = await post({ claimsMatchingExpression: { value: "claims['sub'] contains 'repo'", languageVersion: 1 } });
    expect(operator.body.errors[0].message).toMatch(/Could not read " contains 'repo'" at character 14: the operator is 'matches' or 'eq'/);
    const version = await post({ claimsMatchingExpression: { value: "claims['sub'] eq 'a'", languageVersion: 2 } });
    expect(version.body.errors).toEqual([{ field: 'claimsMatchingExpression.languageVersion', message: 'languageVersion must be 1' }]);
    const unknownField = await post({ subject: 'a', claimsMatchingExpression: { value: "claims['sub'] eq 'a'", languageVersion: 1, flags: 'i' } });
    expect(unknownField.status).toBe(400);
  });

  it('refuses issuers that are not https URLs, and empty audiences', async () => {
    const post = (issuer: string, extra: object = {}) =>
      call('post', credentials(partnerClientId), contact.token, { name: 'issuer-test', issuer, subject: 's', ...extra });
    for (const issuer of ['http://token.actions.githubusercontent.com', 'https://user:pw@issuer.example', 'https://issuer.example/?a=b', 'not a url']) {
      const answer = await post(issuer);
      expect(answer.status, issuer).toBe(400);
      expect(answer.body.errors[0].field, issuer).toBe('issuer');
    }
    expect((await post(GITHUB, { audiences: [] })).body.errors[0].field).toBe('audiences');
    expect((await post(GITHUB, { name: 'bad name!' })).body.errors[0].field).toBe('name');
  });

  it('changes what a credential matches (not its name) and removes it, each audited', async () => {
    const [first] = (await call('get', credentials(partnerClientId), contact.token)).body as Array<{ id: string }>;
    const changed = await call('patch', `${credentials(partnerClientId)}/${first!.id}`, contact.token, { claimsMatchingExpression: BRANCHES });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: 'github-production', subject: null, claimsMatchingExpression: BRANCHES });
    expect((await call('patch', `${credentials(partnerClientId)}/${first!.id}`, contact.token, { name: 'renamed' })).status).toBe(400);
    const back = await call('patch', `${credentials(partnerClientId)}/${first!.id}`, contact.token, { subject: 'repo:contoso/orders:pull_request' });
    expect(back.body).toMatchObject({ subject: 'repo:contoso/orders:pull_request', claimsMatchingExpression: null });
    expect((await call('delete', `${credentials(partnerClientId)}/${first!.id}`, contact.token)).status).toBe(204);
    expect((await call('delete', `${credentials(partnerClientId)}/${first!.id}`, contact.token)).status).toBe(404);
    const audit = await call('get', '/audit-events?action=client.federated_credential.*', auditor.token);
    const actions = audit.body.items.map((e: { action: string }) => e.action);
    expect(actions.filter((a: string) => a === 'client.federated_credential.updated')).toHaveLength(2);
    expect(actions).toContain('client.federated_credential.removed');
  });

  it('needs Secrets.Manage to change and Clients.Read to list; an operator client is its owner’s and the Administrators’', async () => {
    expect((await call('post', credentials(partnerClientId), auditor.token, { name: 'x', issuer: GITHUB, subject: 's' })).status).toBe(403);
    const onAdmin = await call('post', credentials(admin.clientId), contact.token, { name: 'x', issuer: GITHUB, subject: 's' });
    expect(onAdmin.status).toBe(403);
    expect(onAdmin.body.code).toBe('owner_privileged');
    const own = await call('post', credentials(admin.clientId), admin.token, { name: 'x', issuer: GITHUB, subject: 's' });
    expect(own.status).toBe(201);
    expect((await call('delete', `${credentials(admin.clientId)}/${own.body.id}`, contact.token)).body.code).toBe('owner_privileged');
    expect((await call('get', credentials('00000000-0000-4000-8000-000000000000'), contact.token)).status).toBe(404);
  });

  it('npm run cli -- federated-credential add, list, remove', async () => {
    const clientId = (await call('post', '/clients', contact.token, { displayName: 'From the CLI' })).body.clientId as string;
    const run = (...args: string[]) => cli(config, ['federated-credential', ...args]);
    const added = await run('add', '--tenant', tenant.slug, clientId, '--name', 'k8s-orders', '--issuer', 'https://k8s.example/cluster-1',
      '--subject', 'system:serviceaccount:orders:sync', '--json');
    const [credential] = JSON.parse(added.stdout) as Array<{ id: string; audiences: string[] }>;
    expect(credential!.audiences).toEqual(['api://AzureADTokenExchange']);
    await run('add', '--tenant', tenant.slug, clientId, '--name', 'gh', '--issuer', GITHUB, '--expression', BRANCHES.value, '--audience', 'a,b');
    const listed = await run('list', '--tenant', tenant.slug, clientId);
    expect(listed.stdout).toContain(`${credential!.id}  k8s-orders  https://k8s.example/cluster-1  system:serviceaccount:orders:sync  aud api://AzureADTokenExchange`);
    expect(listed.stdout).toContain(`gh  ${GITHUB}  expression ${BRANCHES.value}  aud a,b`);
    const bad = await run('add', '--tenant', tenant.slug, clientId, '--name', 'x', '--issuer', GITHUB, '--expression', "claims['sub'] like 'x'").catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringContaining("the operator is 'matches' or 'eq'") });
    expect((await run('remove', '--tenant', tenant.slug, clientId, credential!.id)).stdout).toBe(`removed federated credential ${credential!.id}\n`);
    expect((await call('get', credentials(clientId), auditor.token)).body).toHaveLength(1);
  }, 120_000); // five processes, each starting Node and checking the migrations
});
