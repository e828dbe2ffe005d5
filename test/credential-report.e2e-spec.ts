import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientCertificateService, ClientService, FederatedCredentialService, StaleCredentialService } from '@gatehouse/clients';
import { LastUseFlusher, LastUseRecorder } from '@gatehouse/tokens';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { makeCertificate } from './support/client-certificates.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The credential report and least privilege over the admin API: every kind with the last use its
 * flush wrote (the identity replicas' statements, run here on the admin app's own flusher), the
 * filters, paging, CSV by Accept; unused scopes removed in one audited step.
 */
describe('credential report and least privilege', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let db: DataSource;
  let tenant: TenantFixture;
  let it_: OperatorFixture;
  let contact: OperatorFixture;
  let clientId: string;
  let objectId: string;
  let keys: { secret: string; certificate: string; federated: string; unused: string };

  const get = (path: string, token = it_.token) =>
    request(app.getHttpServer()).get(`/admin/v1${path}`).set('authorization', `Bearer ${token}`);
  const post = (path: string, token = it_.token) =>
    request(app.getHttpServer()).post(`/admin/v1${path}`).set('authorization', `Bearer ${token}`).send({});

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url);
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    db = app.get(DataSource);
    const fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    it_ = await fixtures.operator(tenant, ['ITDepartment']);
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    const clients = app.get(ClientService);
    const client = await clients.create(tenant.tenantId, SYSTEM_ACTOR, { displayName: 'Orders sync' });
    clientId = client.clientId;
    objectId = client.objectId;
    const secret = await clients.issueSecret(tenant.tenantId, SYSTEM_ACTOR, clientId, { displayName: 'prod' });
    const unused = await clients.issueSecret(tenant.tenantId, SYSTEM_ACTOR, clientId, { displayName: 'old' });
    const certificate = await app
      .get(ClientCertificateService)
      .add(tenant.tenantId, SYSTEM_ACTOR, clientId, { certificate: makeCertificate({ type: 'ec' }).pem });
    const federated = await app.get(FederatedCredentialService).add(tenant.tenantId, SYSTEM_ACTOR, clientId, {
      name: 'deploy',
      issuer: 'https://token.actions.githubusercontent.com',
      subject: 'repo:partner/app:ref:refs/heads/main',
    });
    keys = { secret: secret.keyId, certificate: certificate.keyId, federated: federated.id, unused: unused.keyId };
    await db.query(`UPDATE client_secrets SET created_at = now() - interval '200 days' WHERE key_id = $1`, [unused.keyId]);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('a flush writes the last use of a certificate and a federated credential, with its address', async () => {
    const [secretHash] = await db.query(`SELECT secret_hash FROM client_secrets WHERE key_id = $1`, [keys.secret]);
    const recorder = app.get(LastUseRecorder);
    const client = { id: objectId, clientId, state: 'active' as const, ownerUserId: null, ownerStatus: null, ownerRoles: [] };
    const api = { id: '00000000-0000-4000-8000-000000000000', appId: '', identifier: 'api://x', builtIn: false, scopes: [], accessTokenVersion: 2 as const, accessTokenTyp: 'JWT' as const };
    const origin = (address: string) => ({ socket: { remoteAddress: address }, headers: {} }) as never;
    const hash = (secretHash.secret_hash as Buffer).toString('latin1');
    recorder.record('secret', hash, tenant.tenantId, client, api, [], false, origin('198.51.100.1'));
    recorder.record('certificate', keys.certificate, tenant.tenantId, client, api, [], false, origin('198.51.100.2'));
    recorder.record('federated', keys.federated, tenant.tenantId, client, api, [], false, origin('2001:db8::3'));
    await app.get(LastUseFlusher).flush();

    const secrets = await get(`/clients/${clientId}/secrets`).expect(200);
    const used = secrets.body.find((s: Json) => s.keyId === keys.secret);
    expect(used).toMatchObject({ lastUsedFrom: '198.51.100.1' });
    expect(new Date(used.lastUsedAt).getUTCSeconds()).toBe(0);
    expect(secrets.body.find((s: Json) => s.keyId === keys.unused)).toMatchObject({ lastUsedAt: null, lastUsedFrom: null });
    const certificates = await get(`/clients/${clientId}/certificates`).expect(200);
    expect(certificates.body[0]).toMatchObject({ keyId: keys.certificate, lastUsedFrom: '198.51.100.2' });
    const federated = await get(`/clients/${clientId}/federated-credentials`).expect(200);
    expect(federated.body[0]).toMatchObject({ id: keys.federated, lastUsedFrom: '2001:db8::3' });
    expect(federated.body[0].lastUsedAt).not.toBeNull();
  });

  it('the report lists every kind with its client, identifying field, last use and state (Clients.Read)', async () => {
    const report = await get('/credential-report', contact.token).expect(200);
    const ours = (report.body.items as Json[]).filter((e) => e.clientId === clientId);
    expect(ours.map((e) => e.kind).sort()).toEqual(['certificate', 'federated', 'secret', 'secret']);
    const byKey = new Map(ours.map((e) => [e.keyId, e]));
    expect(byKey.get(keys.secret)).toMatchObject({ clientName: 'Orders sync', kind: 'secret', lastUsedFrom: '198.51.100.1', state: 'active' });
    expect(byKey.get(keys.secret)!.hint).toMatch(/^.{3}$/);
    expect(byKey.get(keys.certificate)!.thumbprint).toMatch(/^[0-9A-F]{40}$/);
    expect(byKey.get(keys.federated)).toMatchObject({
      issuer: 'https://token.actions.githubusercontent.com',
      subject: 'repo:partner/app:ref:refs/heads/main',
      expiresAt: null,
      lastUsedFrom: '2001:db8::3',
    });
    expect(JSON.stringify(report.body)).not.toMatch(/secret_?hash/i);
  });

  it('filters: never used, unused for N days, expiring, kind; bad input is a 400 naming the field', async () => {
    const never = await get('/credential-report?neverUsed=true').expect(200);
    expect((never.body.items as Json[]).map((e) => e.keyId)).toContain(keys.unused);
    expect((never.body.items as Json[]).map((e) => e.keyId)).not.toContain(keys.secret);
    const idle = await get('/credential-report?unusedForDays=90').expect(200);
    expect((idle.body.items as Json[]).map((e) => e.keyId)).toEqual([keys.unused]);
    const expiring = await get('/credential-report?expiringWithinDays=200&kind=secret').expect(200);
    expect((expiring.body.items as Json[]).every((e) => e.kind === 'secret')).toBe(true);
    // Federated credentials never expire: with a state filter beside it, their part drops out whole.
    const expiringActive = await get('/credential-report?state=active&expiringWithinDays=200').expect(200);
    expect((expiringActive.body.items as Json[]).every((e) => e.kind !== 'federated')).toBe(true);
    const refused = await get('/credential-report?unusedForDays=0').expect(400);
    expect(JSON.stringify(refused.body)).toContain('unusedForDays');
    await get('/credential-report?kind=password').expect(400);
  });

  it('pages with cursor / nextCursor, each entry once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: request.Response = await get(`/credential-report?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
      seen.push(...(page.body.items as Json[]).map((e) => e.keyId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(Object.values(keys)));
  });

  it('answers CSV with Accept: text/csv, a header and one line per credential', async () => {
    const csv = await get('/credential-report').set('accept', 'text/csv').expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('clientId,clientName,kind,keyId,displayName,hint,thumbprint,issuer,subject,createdAt,expiresAt,lastUsedAt,lastUsedFrom,state,disabledAt');
    expect(lines.filter((l) => l.includes(keys.secret))[0]).toContain('198.51.100.1');
    expect(lines.length - 1).toBeGreaterThanOrEqual(4);
  });

  it('scopes unused for 90 days are marked; IT removes them in one audited step, the used one stays', async () => {
    await request(app.getHttpServer()).post('/admin/v1/apis').set('authorization', `Bearer ${it_.token}`).send({ identifier: 'api://orders', displayName: 'Orders' }).expect(201);
    const apis = await get('/apis').expect(200);
    const orders = (apis.body.items as Json[]).find((a) => a.identifier === 'api://orders')!;
    for (const value of ['Orders.Read', 'Orders.Write', 'Orders.Admin']) {
      await request(app.getHttpServer()).post(`/admin/v1/apis/${orders.id}/scopes`).set('authorization', `Bearer ${it_.token}`).send({ value }).expect(201);
    }
    const all = ['api://orders/Orders.Admin', 'api://orders/Orders.Read', 'api://orders/Orders.Write'];
    await request(app.getHttpServer()).put(`/admin/v1/clients/${clientId}/scopes`).set('authorization', `Bearer ${it_.token}`).send({ scopes: all }).expect(200);
    // Read: used yesterday; Write: used 120 days ago; Admin: granted 100 days ago, never used.
    await db.query(`UPDATE client_scope_grants SET created_at = now() - interval '150 days' WHERE api_client_id = $1`, [objectId]);
    const setUse = (value: string, sql: string) =>
      db.query(`UPDATE client_scope_grants g SET last_used_at = ${sql} FROM api_scopes s WHERE s.id = g.scope_id AND g.api_client_id = $1 AND s.value = $2`, [objectId, value]);
    await setUse('Orders.Read', `now() - interval '1 day'`);
    await setUse('Orders.Write', `now() - interval '120 days'`);

    const before = await get(`/clients/${clientId}`).expect(200);
    expect(before.body.scopes).toEqual(all);
    const marks = Object.fromEntries((before.body.scopeGrants as Json[]).map((g) => [g.scope, g.unused]));
    expect(marks).toEqual({ 'api://orders/Orders.Admin': true, 'api://orders/Orders.Read': false, 'api://orders/Orders.Write': true });

    await post(`/clients/${clientId}/scopes/remove-unused`, contact.token).expect(403);
    const removed = await post(`/clients/${clientId}/scopes/remove-unused`).expect(200);
    expect(removed.body).toEqual({ removed: ['api://orders/Orders.Admin', 'api://orders/Orders.Write'], scopes: ['api://orders/Orders.Read'], state: 'active' });
    const after = await get(`/clients/${clientId}`).expect(200);
    expect(after.body.scopeGrants).toEqual([expect.objectContaining({ scope: 'api://orders/Orders.Read', unused: false, lastUsedAt: expect.any(String) })]);
    const events = await db.query(`SELECT details FROM audit_events WHERE action = 'client.scopes.unused_removed' AND target_id = $1`, [clientId]);
    expect(events).toHaveLength(1);
    expect(events[0].details.removed).toEqual(['api://orders/Orders.Admin', 'api://orders/Orders.Write']);
    // Twice: nothing unused any more, nothing written.
    expect((await post(`/clients/${clientId}/scopes/remove-unused`).expect(200)).body.removed).toEqual([]);
    expect(await db.query(`SELECT 1 FROM audit_events WHERE action = 'client.scopes.unused_removed' AND target_id = $1`, [clientId])).toHaveLength(1);
  });

  it('a credential unused for 90 days is reported once, to the client\'s contact and the contact person, audited', async () => {
    const clients = app.get(ClientService);
    const stale = await clients.create(tenant.tenantId, SYSTEM_ACTOR, { displayName: 'Old batch job', contactEmail: 'ops@partner.example' });
    await db.query(`UPDATE api_clients SET created_by_user_id = $2 WHERE client_id = $1`, [stale.clientId, contact.user.id]);
    const secret = await clients.issueSecret(tenant.tenantId, SYSTEM_ACTOR, stale.clientId, { displayName: 'batch' });
    await db.query(`UPDATE client_secrets SET last_used_at = now() - interval '95 days' WHERE key_id = $1`, [secret.keyId]);
    const job = app.get(StaleCredentialService);
    await job.reportStale();
    await job.reportStale();
    const events = await db.query(`SELECT details FROM audit_events WHERE action = 'client.credential.stale' AND target_id = $1`, [stale.clientId]);
    expect(events).toHaveLength(1);
    expect(events[0].details).toMatchObject({ kind: 'secret', keyId: secret.keyId, unusedDays: 90, mailed: 2 });
    const mails = await db.query(`SELECT to_address FROM emails WHERE template = 'credential-stale' AND tenant_id = $1 ORDER BY to_address`, [tenant.tenantId]);
    expect(mails.map((m: Json) => m.to_address)).toEqual(expect.arrayContaining(['ops@partner.example', contact.user.email]));
    // The never-used secret created 200 days ago is stale too; the fresh ones are not.
    const all = await db.query(`SELECT details->>'keyId' AS key FROM audit_events WHERE action = 'client.credential.stale'`);
    expect(all.map((e: Json) => e.key)).toEqual(expect.arrayContaining([keys.unused, secret.keyId]));
    expect(all.map((e: Json) => e.key)).not.toContain(keys.secret);
  });

  it('outsidePolicy=true lists the live credentials the tenant policy flags, as the Overview counts them', async () => {
    // No policy yet: nothing is outside it.
    expect((await get('/credential-report?outsidePolicy=true').expect(200)).body.items).toEqual([]);
    const admin = await new AdminFixtures(app, testConfig(database.url)).operator(tenant, ['Administrator']);
    await request(app.getHttpServer())
      .put('/admin/v1/credential-policy')
      .set('authorization', `Bearer ${admin.token}`)
      .send({ maxSecretLifetimeDays: 30, allowedCredentialKinds: ['secret', 'certificate'] })
      .expect(200);
    const revoked = await app.get(ClientService).issueSecret(tenant.tenantId, SYSTEM_ACTOR, clientId, { expiresInDays: 20 });
    await db.query(`UPDATE client_secrets SET revoked_at = now(), expires_at = now() + interval '300 days' WHERE key_id = $1`, [revoked.keyId]);
    const flagged = ((await get('/credential-report?outsidePolicy=true').expect(200)).body.items as Json[]).filter((e) => e.clientId === clientId);
    // The 180-day secrets and the federated credential (a kind no longer allowed); not the certificate, not the revoked one.
    expect(flagged.map((e) => e.keyId).sort()).toEqual([keys.secret, keys.unused, keys.federated].sort());
    const secretsOnly = await get('/credential-report?outsidePolicy=true&kind=secret').expect(200);
    expect((secretsOnly.body.items as Json[]).every((e) => e.kind === 'secret')).toBe(true);
    await get('/credential-report?outsidePolicy=yes').expect(400);
  });
});
