import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@gatehouse/config';
import { StaleCredentialService } from '@gatehouse/clients';
import { staleCredentialEmail } from '@gatehouse/mail';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { makeAssertion, makeCertificate } from './support/client-certificates.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Stale credentials disabled (DESIGN §12, `disableStaleCredentials`) against the real token
 * endpoint: the worker's run that reports a stale credential disables it when the tenant's policy
 * says so — the identity replica's cached snapshot drops it at once (the change is announced), the
 * token request fails with Entra's answer for a wrong secret or an unknown certificate — audited
 * and mailed; enabled again over REST, it works at once and the next run leaves it alone; with
 * the setting off a stale credential is only reported.
 */
describe('stale credentials disabled and enabled again', () => {
  let database: TestDatabase;
  let identity: INestApplication;
  let admin: INestApplication;
  let db: DataSource;
  let config: AppConfig;
  let identityUrl: string;
  let adminUrl: string;
  let tenant: TenantFixture;
  let administrator: OperatorFixture;
  let contact: OperatorFixture;
  let auditor: OperatorFixture;

  const adminCall = async (method: string, path: string, body?: unknown, token = administrator.token) => {
    const response = await fetch(`${adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (response.status === 204 ? {} : await response.json()) as Json };
  };
  const tokenEndpoint = () => `${identityUrl}/${tenant.slug}/oauth2/v2.0/token`;
  const tokenRequest = async (fields: Record<string, string>) => {
    const response = await fetch(tokenEndpoint(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'api://orders/.default', ...fields }),
    });
    const body = (await response.json()) as Json;
    return { status: response.status, error: body.error as string | undefined, code: (body.error_codes as number[] | undefined)?.[0] };
  };
  const withSecret = (clientId: string, secret: string) => tokenRequest({ client_id: clientId, client_secret: secret });
  const withCertificate = async (clientId: string, certificate: ReturnType<typeof makeCertificate>) =>
    tokenRequest({
      client_id: clientId,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await makeAssertion(certificate, { clientId, audience: tokenEndpoint(), alg: 'ES256' }),
    });
  /** The answer once it is no longer `from` (a replica hears the change a moment after the commit), within 5 s. */
  const settled = async (attempt: () => Promise<{ status: number }>, from: number) => {
    let answer = await attempt();
    for (const deadline = Date.now() + 5_000; answer.status === from && Date.now() < deadline; answer = await attempt())
      await new Promise((resolve) => setTimeout(resolve, 50));
    return answer;
  };
  const setPolicy = (disableStaleCredentials: boolean) =>
    adminCall('PUT', '/credential-policy', { staleCredentialDays: 90, disableStaleCredentials });
  const events = (action: string, keyId: string) =>
    db.query(`SELECT details, actor_type FROM audit_events WHERE action = $1 AND details->>'keyId' = $2 ORDER BY occurred_at`, [action, keyId]);
  const age = (table: string, column: string, key: string) =>
    db.query(`UPDATE ${table} SET last_used_at = now() - interval '100 days', created_at = now() - interval '200 days' WHERE ${column} = $1`, [key]);

  async function readyClient(name: string) {
    const created = await adminCall('POST', '/clients', { displayName: name, contactEmail: `${name.toLowerCase().replace(/\W/g, '')}@partner.example` });
    const clientId = created.body.clientId as string;
    await db.query(`UPDATE api_clients SET created_by_user_id = $2 WHERE client_id = $1`, [clientId, contact.user.id]);
    expect((await adminCall('PUT', `/clients/${clientId}/scopes`, { scopes: ['api://orders/Orders.Read'] })).status).toBe(200);
    const secret = (await adminCall('POST', `/clients/${clientId}/secrets`, {})).body as { secretText: string; keyId: string };
    return { clientId, secret };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    identityUrl = `http://127.0.0.1:${port}`;
    config = testConfig(database.url, { publicUrl: identityUrl });
    identity = await createIdentityApp({ config, logDestination: new LogCapture() });
    await identity.listen(port, '127.0.0.1');
    admin = await createAdminApp({ config, logDestination: new LogCapture() });
    const adminPort = await freePort();
    await admin.listen(adminPort, '127.0.0.1');
    adminUrl = `http://127.0.0.1:${adminPort}/admin/v1`;
    db = admin.get(DataSource);
    const fx = new AdminFixtures(admin, config);
    tenant = await fx.tenant();
    administrator = await fx.operator(tenant, ['Administrator']);
    contact = await fx.operator(tenant, ['ContactPerson']);
    auditor = await fx.operator(tenant, ['Auditor']);
    const api = await adminCall('POST', '/apis', { identifier: 'api://orders', displayName: 'Orders' });
    await adminCall('POST', `/apis/${api.body.id as string}/scopes`, { value: 'Orders.Read' });
  });

  afterAll(async () => {
    await identity?.close();
    await admin?.close();
    await database?.drop();
  });

  let reportedOnly: { clientId: string; secret: { secretText: string; keyId: string } };

  it('with the setting off, a stale secret is only reported: it keeps working', async () => {
    expect((await setPolicy(false)).status).toBe(200);
    reportedOnly = await readyClient('Report only');
    await age('client_secrets', 'key_id', reportedOnly.secret.keyId);
    const run = await admin.get(StaleCredentialService).reportStale();
    expect(run).toMatchObject({ reported: 1, disabled: 0 });
    expect(await events('client.credential.stale', reportedOnly.secret.keyId)).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ kind: 'secret', disabled: false, mailed: 2 }) }),
    ]);
    expect(await events('client.credential.disabled', reportedOnly.secret.keyId)).toEqual([]);
    expect(await withSecret(reportedOnly.clientId, reportedOnly.secret.secretText)).toMatchObject({ status: 200 });
    const [secret] = (await adminCall('GET', `/clients/${reportedOnly.clientId}/secrets`)).body as unknown as Json[];
    expect(secret).toMatchObject({ disabledAt: null });
  });

  it('with the setting on, the run that reports a secret and a certificate disables them: token requests fail at once (7000215, 700027), audited and mailed', async () => {
    expect((await setPolicy(true)).status).toBe(200);
    const { clientId, secret } = await readyClient('Old batch job');
    const certificate = makeCertificate({ type: 'ec' });
    const added = await adminCall('POST', `/clients/${clientId}/certificates`, { certificate: certificate.pem });
    const certificateKey = added.body.keyId as string;
    const fresh = (await adminCall('POST', `/clients/${clientId}/secrets`, {})).body as { secretText: string; keyId: string };
    // Each works, and so sits in the identity replica's cache before the run.
    expect(await withSecret(clientId, secret.secretText)).toMatchObject({ status: 200 });
    expect(await withCertificate(clientId, certificate)).toMatchObject({ status: 200 });
    await age('client_secrets', 'key_id', secret.keyId);
    await age('client_certificates', 'key_id', certificateKey);

    const run = await admin.get(StaleCredentialService).reportStale();
    // The secret reported earlier with the setting off is disabled now too, without a second report.
    expect(run).toMatchObject({ reported: 2, disabled: 3 });
    expect(await settled(() => withSecret(clientId, secret.secretText), 200)).toMatchObject({ status: 401, error: 'invalid_client', code: 7000215 });
    expect(await settled(() => withCertificate(clientId, certificate), 200)).toMatchObject({ status: 401, error: 'invalid_client', code: 700027 });
    expect(await withSecret(clientId, fresh.secretText)).toMatchObject({ status: 200 });
    expect(await settled(() => withSecret(reportedOnly.clientId, reportedOnly.secret.secretText), 200)).toMatchObject({ status: 401, code: 7000215 });

    for (const key of [secret.keyId, certificateKey, reportedOnly.secret.keyId]) {
      expect(await events('client.credential.disabled', key)).toEqual([
        expect.objectContaining({ actor_type: 'system', details: expect.objectContaining({ keyId: key, reason: 'stale', unusedDays: 90 }) }),
      ]);
    }
    expect(await events('client.credential.stale', reportedOnly.secret.keyId)).toHaveLength(1);
    expect((await events('client.credential.stale', secret.keyId))[0].details).toMatchObject({ disabled: true });
    // The mails (bodies sealed in the outbox: their subject tells) say it was disabled, and how to undo it.
    const mails: Json[] = await db.query(
      `SELECT to_address FROM emails WHERE template = 'credential-stale' AND subject = 'Unused credential of Old batch job disabled'`,
    );
    expect(mails.map((m) => m.to_address)).toEqual(expect.arrayContaining(['oldbatchjob@partner.example', contact.user.email]));
    const text = staleCredentialEmail({ clientDisplayName: 'Old batch job', clientId, kindLabel: 'client secret', identifying: 'x', days: 90, lastUsedAt: null, disabled: true }).text;
    expect(text).toContain('it was disabled');
    expect(text).toContain('Enable again');

    const [listed] = ((await adminCall('GET', `/clients/${clientId}/secrets`)).body as unknown as Json[]).filter((s) => s.keyId === secret.keyId);
    expect(listed.disabledAt).toEqual(expect.any(String));
    const report = await adminCall('GET', '/credential-report?state=disabled', undefined, auditor.token);
    expect((report.body.items as Json[]).map((e) => e.keyId).sort()).toEqual([secret.keyId, certificateKey, reportedOnly.secret.keyId].sort());
    expect((report.body.items as Json[])[0]).toMatchObject({ state: 'disabled', disabledAt: expect.any(String) });
    // A second run changes nothing.
    expect(await admin.get(StaleCredentialService).reportStale()).toMatchObject({ reported: 0, disabled: 0 });

    // Enabled again (Secrets.Manage): it works at once, audited; the next run leaves it alone.
    expect((await adminCall('POST', `/clients/${clientId}/secrets/${secret.keyId}/enable`, undefined, auditor.token)).status).toBe(403);
    const enabled = await adminCall('POST', `/clients/${clientId}/secrets/${secret.keyId}/enable`, undefined, contact.token);
    expect(enabled).toMatchObject({ status: 200, body: { keyId: secret.keyId, disabledAt: null } });
    expect(await settled(() => withSecret(clientId, secret.secretText), 401)).toMatchObject({ status: 200 });
    const certificateEnabled = await adminCall('POST', `/clients/${clientId}/certificates/${certificateKey}/enable`);
    expect(certificateEnabled).toMatchObject({ status: 200, body: { keyId: certificateKey, disabledAt: null } });
    expect(await settled(() => withCertificate(clientId, certificate), 401)).toMatchObject({ status: 200 });
    expect(await events('client.credential.enabled', secret.keyId)).toEqual([
      expect.objectContaining({ actor_type: 'user', details: expect.objectContaining({ kind: 'secret', disabledAt: expect.any(String) }) }),
    ]);
    // Enabling twice is no change (and no second event); an unknown key is a 404.
    expect((await adminCall('POST', `/clients/${clientId}/secrets/${secret.keyId}/enable`)).status).toBe(200);
    expect(await events('client.credential.enabled', secret.keyId)).toHaveLength(1);
    expect((await adminCall('POST', `/clients/${clientId}/secrets/00000000-0000-4000-8000-000000000000/enable`)).status).toBe(404);
    expect((await adminCall('POST', `/clients/${clientId}/federated-credentials/not-a-uuid/enable`)).status).toBe(404);
    // Still no token with it since (last use 100 days ago), yet counted afresh from its enabling.
    await db.query(`UPDATE client_secrets SET last_used_at = now() - interval '100 days' WHERE key_id = $1`, [secret.keyId]);
    expect(await admin.get(StaleCredentialService).reportStale()).toMatchObject({ reported: 0, disabled: 0 });
    expect(await withSecret(clientId, secret.secretText)).toMatchObject({ status: 200 });
  });

  it('a federated credential is disabled and enabled again the same way', async () => {
    const { clientId } = await readyClient('Deploy job');
    const added = await adminCall('POST', `/clients/${clientId}/federated-credentials`, {
      name: 'deploy',
      issuer: 'https://token.actions.githubusercontent.com',
      subject: 'repo:partner/app:ref:refs/heads/main',
    });
    const id = added.body.id as string;
    await age('client_federated_credentials', 'id', id);
    expect(await admin.get(StaleCredentialService).reportStale()).toMatchObject({ disabled: 1 });
    const listed = (await adminCall('GET', `/clients/${clientId}/federated-credentials`)).body as unknown as Json[];
    expect(listed[0]).toMatchObject({ id, disabledAt: expect.any(String) });
    const [row] = await db.query(`SELECT disabled_at FROM client_federated_credentials WHERE id = $1`, [id]);
    expect(row.disabled_at).not.toBeNull();
    const enabled = await adminCall('POST', `/clients/${clientId}/federated-credentials/${id}/enable`);
    expect(enabled).toMatchObject({ status: 200, body: { id, disabledAt: null } });
    expect(await events('client.credential.enabled', id)).toHaveLength(1);
  });
});
