import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLIENT_SECRET_PATTERN, generateClientSecret } from '@gatehouse/crypto';
import { LEAK_REPORTS_PER_SOURCE } from '@gatehouse/tokens';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { runCredentialCommand } from '../apps/cli/src/credential.commands.js';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { makeCertificate } from './support/client-certificates.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import type { AppConfig } from '@gatehouse/config';

/** Scannable secrets, `secret check`, `certificate …` on the command line, and the leak report (SECURITY 52). */
describe('scannable secrets and the leak report', () => {
  let database: TestDatabase;
  let identity: INestApplication;
  let admin: INestApplication;
  let config: AppConfig;
  let identityUrl: string;
  let adminUrl: string;
  let tenant: TenantFixture;
  let operator: OperatorFixture;
  let contactPerson: OperatorFixture;
  const idLogs = new LogCapture();

  const adminCall = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${adminUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${operator.token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: response.status,
      body: response.status === 204 ? null : ((await response.json()) as Record<string, unknown>),
    };
  };
  const report = (entries: unknown, source = '192.0.2.50') =>
    fetch(`${identityUrl}/${tenant.slug}/secret-scanning/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': source },
      body: JSON.stringify(entries),
    });
  const token = (clientId: string, secret: string) =>
    fetch(`${identityUrl}/${tenant.slug}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
        scope: 'api://orders/.default',
      }),
    });

  async function readyClient(contactEmail: string) {
    const created = await adminCall('POST', '/clients', { displayName: 'Orders sync', contactEmail });
    const clientId = created.body!.clientId as string;
    await adminCall('PUT', `/clients/${clientId}/scopes`, { scopes: ['api://orders/Orders.Read'] });
    const secret = await adminCall('POST', `/clients/${clientId}/secrets`, {});
    return { clientId, secret: secret.body as { secretText: string; hint: string; keyId: string } };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    identityUrl = `http://127.0.0.1:${port}`;
    config = testConfig(database.url, { publicUrl: identityUrl, trustProxy: ['loopback'] });
    identity = await createIdentityApp({ config, logDestination: idLogs });
    await identity.listen(port, '127.0.0.1');
    admin = await createAdminApp({ config, logDestination: new LogCapture() });
    const adminPort = await freePort();
    await admin.listen(adminPort, '127.0.0.1');
    adminUrl = `http://127.0.0.1:${adminPort}/admin/v1`;
    const fx = new AdminFixtures(admin, config);
    tenant = await fx.tenant();
    operator = await fx.operator(tenant, ['Administrator']);
    contactPerson = await fx.operator(tenant, ['ContactPerson']);
    const api = await adminCall('POST', '/apis', { identifier: 'api://orders', displayName: 'Orders' });
    await adminCall('POST', `/apis/${api.body!.id as string}/scopes`, { value: 'Orders.Read' });
  });

  afterAll(async () => {
    await identity?.close();
    await admin?.close();
    await database?.drop();
  });

  it('new secrets are scannable (gte_ + checksum), hinted after the prefix, and work', async () => {
    const { clientId, secret } = await readyClient('ops@example.com');
    expect(secret.secretText).toMatch(CLIENT_SECRET_PATTERN);
    expect(secret.hint).toBe(secret.secretText.slice(4, 7));
    expect((await token(clientId, secret.secretText)).status).toBe(200);
  });

  it('a reported secret is revoked at once, audited and told; a miss gets the same answer', async () => {
    const { clientId, secret } = await readyClient('ops@example.com');
    expect((await token(clientId, secret.secretText)).status).toBe(200);
    const miss = await report([
      { token: generateClientSecret(), url: 'https://github.com/x/y/blob/main/a.env', source: 'content' },
    ]);
    const hit = await report([
      { token: secret.secretText, url: 'https://github.com/x/y/blob/main/b.env', source: 'content' },
    ]);
    expect(hit.status, idLogs.lines.filter((l) => l.includes('"level":50')).join('\n')).toBe(202);
    expect(miss.status).toBe(202);
    const missText = await miss.text();
    expect(await hit.text()).toBe(missText);
    expect((await token(clientId, secret.secretText)).status).toBe(401);
    const secrets = await adminCall('GET', `/clients/${clientId}/secrets`);
    expect((secrets.body as unknown as Array<{ revokedAt: string | null }>)[0]!.revokedAt).not.toBeNull();
    const audit = await adminCall('GET', '/audit-events?action=client.secret.leak_revoked');
    expect(audit.body!.items as Array<{ targetId: string; details: Record<string, unknown> }>).toEqual([
      expect.objectContaining({
        targetId: clientId,
        details: expect.objectContaining({ keyId: secret.keyId, url: 'https://github.com/x/y/blob/main/b.env' }),
      }),
    ]);
    const mails = await adminCall('GET', '/emails');
    const leakMails = (mails.body!.items as Array<{ to: string; subject: string }>).filter((m) =>
      m.subject.includes('exposed'),
    );
    expect(leakMails.map((m) => m.to).sort()).toEqual([contactPerson.user.email, 'ops@example.com'].sort());
    // Reported again: nothing more to revoke, the same answer.
    expect(await (await report([{ token: secret.secretText }])).text()).toBe(missText);
  });

  it('refuses what is not a report (not an array, more than 100, a token that is no string) and limits each address', async () => {
    for (const body of [{ token: 'x' }, [], Array.from({ length: 101 }, () => ({ token: 'x' })), [{ token: 7 }]]) {
      expect((await report(body, '192.0.2.60')).status).toBe(400);
    }
    const malformed = await fetch(`${identityUrl}/${tenant.slug}/secret-scanning/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(malformed.status).toBe(400);
    expect((await report([{ token: 'x' }], '192.0.2.61')).status).toBe(202);
    const statuses: number[] = [];
    for (let i = 0; i < LEAK_REPORTS_PER_SOURCE + 2; i++)
      statuses.push((await report([{ token: 'x' }], '192.0.2.62')).status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(LEAK_REPORTS_PER_SOURCE);
    const limited = await report([{ token: 'x' }], '192.0.2.62');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await report([{ token: 'x' }], '192.0.2.63')).status).toBe(202);
    expect(
      (
        await fetch(`${identityUrl}/no-such-tenant/secret-scanning/report`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '[{"token":"x"}]',
        })
      ).status,
    ).toBe(404);
  });

  it('npm run cli -- secret check / certificate add, list, remove', async () => {
    const printed: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk));
      return true;
    });
    const errSpy = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
    try {
      expect(await runCredentialCommand('secret', config, ['check', generateClientSecret()])).toBe(0);
      expect(await runCredentialCommand('secret', config, ['check', 'gte_short'])).toBe(1);
      expect(await runCredentialCommand('secret', config, ['check'])).toBe(2);
      const { clientId } = await readyClient('ops@example.com');
      const certificate = makeCertificate();
      writeFileSync(join(dir, 'daemon.pem'), certificate.pem);
      const cli = (...args: string[]) => runCredentialCommand('certificate', config, args);
      expect(
        await cli('add', '--tenant', tenant.slug, clientId, join(dir, 'daemon.pem'), 'from the CLI', '--json'),
      ).toBe(0);
      const added = JSON.parse(printed.at(-1)!) as Array<{ keyId: string; thumbprint: string }>;
      expect(added[0]!.thumbprint).toBe(certificate.sha1Hex);
      expect(await cli('list', '--tenant', tenant.slug, clientId)).toBe(0);
      expect(printed.at(-1)).toContain(certificate.sha1Hex);
      expect(await cli('remove', '--tenant', tenant.slug, clientId, added[0]!.keyId)).toBe(0);
      expect(await cli('remove', '--tenant', tenant.slug, clientId, added[0]!.keyId)).toBe(1);
      expect(await cli('list', '--tenant', 'nobody', clientId)).toBe(1);
    } finally {
      spy.mockRestore();
      errSpy.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(printed.join('')).toContain('well-formed Gatehouse client secret (hint');
    expect(printed.join('')).toContain('not a well-formed Gatehouse client secret: it has 9 characters, not 53');
  });
});
