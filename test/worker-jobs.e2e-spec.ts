import type { INestApplication, INestApplicationContext } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailOutbox, invitationEmail } from '@gatehouse/mail';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { SchedulerService } from '../apps/worker/src/scheduler.service.js';
import { SCHEDULES } from '../apps/worker/src/schedules.js';
import { createWorker } from '../apps/worker/src/worker.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { makeCertificate } from './support/client-certificates.js';
import { SmtpSink } from './support/smtp-sink.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const HOUR = 3_600_000;

describe('worker jobs: delivery by two workers, secret expiry warnings, scheduled sweep', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let tenant: TenantFixture;
  let contact: OperatorFixture;
  const workers: INestApplicationContext[] = [];
  const sink = new SmtpSink();

  const call = (method: 'get' | 'post', path: string, body?: unknown) => {
    const req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${contact.token}`);
    return body === undefined ? req : req.send(body as object);
  };

  beforeAll(async () => {
    await sink.start();
    database = await createTestDatabase();
    const config = testConfig(database.url, { smtpUrl: sink.url });
    app = await createAdminApp({ config });
    dataSource = app.get(DataSource);
    const fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    const intervals = { keyRotation: HOUR, outboxDelivery: HOUR, secretExpiryWarning: HOUR };
    workers.push(await createWorker({ config, jobs: { intervals: { ...intervals, invitationExpiry: 200 }, deliveryBatchSize: 5 } }));
    workers.push(await createWorker({ config, jobs: { intervals: { ...intervals, invitationExpiry: HOUR }, deliveryBatchSize: 5 } }));
  });

  afterAll(async () => {
    for (const worker of workers) await worker.close();
    await app?.close();
    await sink.stop();
    await database?.drop();
  });

  it('runs every schedule declared in schedules.ts through the @nestjs/schedule registry', async () => {
    const registry = workers[0]!.get(SchedulerRegistry);
    expect(registry.getIntervals().sort()).toEqual(Object.values(SCHEDULES).map((s) => s.name).sort());
  });

  it('two workers delivering at once send each message exactly once', async () => {
    const mail = invitationEmail({ displayName: 'X', sections: ['S'], link: 'http://localhost:3000/invitations/t', expiresAt: new Date() });
    const entries = Array.from({ length: 40 }, (_, i) => ({ tenantId: tenant.tenantId, to: `r${i}@example.com`, mail }));
    await dataSource.transaction((em) => app.get(MailOutbox).enqueueMany(em, entries));
    const [a, b] = await Promise.all(workers.map((w) => w.get(SchedulerService).deliverMail()));
    expect(a! + b!).toBe(40);
    expect(sink.messages).toHaveLength(40);
    expect(new Set(sink.messages.map((m) => m.parsed.messageId)).size).toBe(40);
    expect(new Set(sink.messages.map((m) => m.envelopeTo[0])).size).toBe(40);
    const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM emails WHERE status = 'sent'`);
    expect(row.n).toBe(40);
  });

  it('warns the client contact once per secret expiring within 14 days', async () => {
    const client = (await call('post', '/clients', { displayName: 'Sync', contactEmail: 'ops@example.com' })).body;
    expect((await call('post', `/clients/${client.clientId}/secrets`, { displayName: 'soon', expiresInDays: 10 })).status).toBe(201);
    expect((await call('post', `/clients/${client.clientId}/secrets`, { displayName: 'later', expiresInDays: 100 })).status).toBe(201);
    const runs = await Promise.all(workers.map((w) => w.get(SchedulerService).warnExpiringSecrets()));
    expect(runs.reduce((n, r) => n + r.mailed, 0)).toBe(1);
    expect(await workers[0]!.get(SchedulerService).warnExpiringSecrets()).toEqual({ warned: 0, mailed: 0 });
    await workers[1]!.get(SchedulerService).deliverMail();
    const mails = await sink.waitFor((m) => m.envelopeTo[0] === 'ops@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Client secret of Sync expires soon');
    expect(mails[0]!.text).toContain('"soon"');
    const secrets = await dataSource.query(`SELECT display_name, expiry_warned_at IS NOT NULL AS warned FROM client_secrets ORDER BY display_name`);
    expect(secrets.filter((s: Json) => ['soon', 'later'].includes(s.display_name))).toEqual([
      { display_name: 'later', warned: false },
      { display_name: 'soon', warned: true },
    ]);
    const audited = await dataSource.query(
      `SELECT actor_type, target_type, target_id, details FROM audit_events WHERE action = 'client.secret.expiry_warned'`,
    );
    expect(audited).toEqual([
      {
        actor_type: 'system',
        target_type: 'client',
        target_id: client.clientId,
        details: { keyId: expect.any(String), hint: expect.any(String), expiresAt: expect.any(String), mailed: true },
      },
    ]);
  });

  it('warns the client contact once per certificate expiring within 14 days, like secrets', async () => {
    const client = (await call('post', '/clients', { displayName: 'Cert sync', contactEmail: 'certs@example.com' }))
      .body;
    const soon = makeCertificate({ notAfter: new Date(Date.now() + 10 * 24 * HOUR) });
    const later = makeCertificate({ notAfter: new Date(Date.now() + 100 * 24 * HOUR) });
    for (const [certificate, displayName] of [
      [soon, 'soon'],
      [later, 'later'],
    ] as const) {
      expect(
        (await call('post', `/clients/${client.clientId}/certificates`, { certificate: certificate.pem, displayName }))
          .status,
      ).toBe(201);
    }
    const runs = await Promise.all(workers.map((w) => w.get(SchedulerService).warnExpiringSecrets()));
    expect(runs.reduce((n, r) => n + r.mailed, 0)).toBe(1);
    expect(await workers[0]!.get(SchedulerService).warnExpiringSecrets()).toEqual({ warned: 0, mailed: 0 });
    await workers[1]!.get(SchedulerService).deliverMail();
    const mails = await sink.waitFor((m) => m.envelopeTo[0] === 'certs@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('Certificate of Cert sync expires soon');
    expect(mails[0]!.text).toContain(soon.sha1Hex);
    const audited = await dataSource.query(
      `SELECT target_id, details FROM audit_events WHERE action = 'client.certificate.expiry_warned'`,
    );
    expect(audited).toEqual([
      {
        target_id: client.clientId,
        details: { keyId: expect.any(String), thumbprint: soon.sha1Hex, expiresAt: expect.any(String), mailed: true },
      },
    ]);
  });

  it('the throttle purge also deletes the jtis of client assertions that expired', async () => {
    const [row] = await dataSource.query(`SELECT id FROM api_clients LIMIT 1`);
    await dataSource.query(
      `INSERT INTO used_client_assertions (tenant_id, api_client_id, jti, expires_at)
       VALUES ($1, $2, 'old', now() - interval '1 minute'), ($1, $2, 'live', now() + interval '5 minutes')`,
      [tenant.tenantId, row.id],
    );
    await workers[0]!.get(SchedulerService).purgeThrottles();
    const left = await dataSource.query(`SELECT jti FROM used_client_assertions`);
    expect(left).toEqual([{ jti: 'live' }]);
  });

  it('the scheduled sweep (short interval from the worker options) expires an overdue invitation', async () => {
    await call('post', '/doc-sections', { slug: 'guide', title: 'Guide', body: 'x' });
    const invitation = (await call('post', '/invitations', { userId: contact.user.id, sections: ['guide'] })).body;
    // Past the sweep's grace (a minute behind the clock); it reads as expired from its expiry on.
    await dataSource.query(`UPDATE invitations SET expires_at = now() - interval '2 minutes' WHERE id = $1`, [invitation.id]);
    expect((await call('get', `/invitations/${invitation.id}`)).body.status).toBe('expired');
    const deadline = Date.now() + 5000;
    let audited: Array<{ actor_type: string }> = [];
    while (!audited.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      audited = await dataSource.query(`SELECT actor_type FROM audit_events WHERE action = 'invitation.expired' AND target_id = $1`, [
        invitation.id,
      ]);
    }
    expect(audited).toEqual([{ actor_type: 'system' }]);
  });
});
