import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@gatehouse/config';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { cli } from './support/operator-cli.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Failure = { code: number; stderr: string };

/**
 * The governance of DESIGN §12 from the command line, for automation at a contract's end: the
 * credential policy shown and changed rule by rule (a bad rule refused, naming it, nothing
 * written), and a partner organisation offboarded by name and restored — the same use cases as
 * the admin API, audited as the system.
 */
describe('npm run cli -- credential-policy, organisation', () => {
  let database: TestDatabase;
  let config: AppConfig;
  let app: INestApplication;
  let tenant: TenantFixture;
  let administrator: OperatorFixture;

  const call = (method: 'get' | 'post', path: string, body?: object) => {
    const req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${administrator.token}`);
    return body === undefined ? req : req.send(body);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    config = testConfig(database.url);
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    const fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    administrator = await fixtures.operator(tenant, ['Administrator']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('credential-policy show and set: named rules change, the others stay, a bad one is refused naming it', async () => {
    const run = (...args: string[]) => cli(config, ['credential-policy', ...args, '--tenant', tenant.slug]);
    expect((await run('show')).stdout).toContain('in effect from                always (no policy set: the defaults)');
    await run('set', '--max-secret-days', '90', '--kinds', 'secret,federated');
    const changed = JSON.parse((await run('set', '--stale-days', '120', '--json')).stdout);
    expect(changed).toMatchObject({ maxSecretLifetimeDays: 90, allowedCredentialKinds: ['secret', 'federated'], staleCredentialDays: 120 });
    expect((await call('get', '/credential-policy')).body).toMatchObject({ maxSecretLifetimeDays: 90, staleCredentialDays: 120 });
    const bad = (await run('set', '--max-secret-days', '100000').catch((e: Failure) => e)) as Failure;
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('maxSecretLifetimeDays must be a whole number of days');
    const usage = (await run('set', '--disable-stale', 'maybe').catch((e: Failure) => e)) as Failure;
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining('--disable-stale takes true or false') });
    expect((await call('get', '/credential-policy')).body.maxSecretLifetimeDays).toBe(90);
    const audit = await call('get', '/audit-events?action=tenant.credential_policy.*');
    expect(audit.body.items.length).toBeGreaterThanOrEqual(2);
    expect(audit.body.items[0].actor.type).toBe('system');
  }, 120_000);

  it('organisation list, offboard by name (its client disabled), restore', async () => {
    const created = await call('post', '/organisations', { name: 'Northwind Traders' });
    expect(created.status).toBe(201);
    const client = await call('post', '/clients', { displayName: 'Northwind sync', organisationId: created.body.id });
    expect(client.status).toBe(201);
    const run = (...args: string[]) => cli(config, ['organisation', ...args, '--tenant', tenant.slug]);
    expect((await run('list')).stdout).toContain(`${created.body.id}  active      Northwind Traders`);
    const offboarded = await run('offboard', 'northwind traders');
    expect(offboarded.stdout).toContain('offboarded  Northwind Traders  (0 people, 1 clients disabled)');
    expect((await call('get', `/clients/${client.body.clientId}`)).body.state).toBe('disabled');
    const unknown = (await run('offboard', 'Southwind').catch((e: Failure) => e)) as Failure;
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('No organisation named "Southwind"') });
    await run('restore', created.body.id);
    expect((await call('get', `/clients/${client.body.clientId}`)).body.state).not.toBe('disabled');
    const events = (await call('get', '/audit-events?action=organisation.*')).body.items.map((e: { action: string }) => e.action);
    expect(events).toEqual(expect.arrayContaining(['organisation.offboarded', 'organisation.restored']));
  }, 120_000);
});
