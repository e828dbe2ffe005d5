import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsOf } from '@gatehouse/accounts';
import type { Actor } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture, type TenantFixture } from './support/admin-fixtures.js';
import { makeCertificate } from './support/client-certificates.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * Operator clients (owned by a staff user) are the owner's and the Administrators' alone
 * (DESIGN §4, SECURITY.md 50): nobody else mints, revokes, disables or enables them, or creates
 * one for a staff member — not a ContactPerson, not a peer with the same roles.
 */
describe('admin API: operator clients belong to their owner and the Administrators', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fixtures: AdminFixtures;
  let tenant: TenantFixture;
  let admin: OperatorFixture;
  let contact: OperatorFixture;
  let peer: OperatorFixture;

  const call = (method: Method, path: string, token: string, body?: unknown) => {
    const req = request(app.getHttpServer())[method](`/admin/v1${path}`).set('authorization', `Bearer ${token}`);
    return body === undefined ? req : req.send(body as object);
  };
  const secretKeyIds = async (clientId: string) =>
    (await call('get', `/clients/${clientId}/secrets`, admin.token)).body.map((s: { keyId: string; revokedAt: string | null }) => s);

  /** Every credential or state change on someone else's operator client, as `actor` would try it. */
  async function everyChange(target: OperatorFixture & { certificateKeyId?: string }, actor: OperatorFixture, keyId: string) {
    return {
      mint: await call('post', `/clients/${target.clientId}/secrets`, actor.token, {}),
      revoke: await call('delete', `/clients/${target.clientId}/secrets/${keyId}`, actor.token),
      disable: await call('post', `/clients/${target.clientId}/disable`, actor.token),
      enable: await call('post', `/clients/${target.clientId}/enable`, actor.token),
      create: await call('post', '/clients', actor.token, { displayName: 'in their name', ownerUserId: target.user.id }),
      addCertificate: await call('post', `/clients/${target.clientId}/certificates`, actor.token, { certificate: makeCertificate({ type: 'ec' }).pem }),
      removeCertificate: await call('delete', `/clients/${target.clientId}/certificates/${target.certificateKeyId}`, actor.token),
    };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url);
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    fixtures = new AdminFixtures(app, config);
    tenant = await fixtures.tenant();
    admin = await fixtures.operator(tenant, ['Administrator']);
    contact = await fixtures.operator(tenant, ['ContactPerson']);
    peer = await fixtures.operator(tenant, ['ContactPerson']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it("a ContactPerson can neither revoke, mint, disable nor enable an Administrator's client (403, nothing changed)", async () => {
    const minted = await call('post', `/clients/${admin.clientId}/secrets`, admin.token, { displayName: 'admin cli' });
    expect(minted.status).toBe(201);
    const certificate = await call('post', `/clients/${admin.clientId}/certificates`, admin.token, { certificate: makeCertificate({ type: 'ec' }).pem });
    expect(certificate.status).toBe(201);
    const before = await secretKeyIds(admin.clientId);
    const answers = await everyChange({ ...admin, certificateKeyId: certificate.body.keyId }, contact, minted.body.keyId);
    for (const [name, answer] of Object.entries(answers)) {
      expect(answer.status, name).toBe(403);
      // Only an Administrator chooses a client's owner (SECURITY 55).
      expect(answer.body.code, name).toBe(name === 'create' ? 'owner_requires_administrator' : 'owner_privileged');
    }
    expect(await secretKeyIds(admin.clientId)).toEqual(before);
    expect((await call('get', `/clients/${admin.clientId}/certificates`, admin.token)).body).toHaveLength(1);
    expect((await call('get', `/clients/${admin.clientId}`, admin.token)).body.state).toBe('active');
    expect((await call('get', '/tenant', admin.token)).status).toBe(200); // the Administrator still gets in
  });

  it("a peer with the same roles cannot touch another's operator client", async () => {
    const minted = await call('post', `/clients/${peer.clientId}/secrets`, peer.token, {});
    expect(minted.status).toBe(201);
    const answers = await everyChange(peer, contact, minted.body.keyId);
    for (const [name, answer] of Object.entries(answers)) expect(answer.status, name).toBe(403);
    const audit = await app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM audit_events WHERE actor_id = $1 AND target_id = $2`, [contact.user.id, peer.clientId]);
    expect(audit[0].n).toBe(0);
  });

  it('the owner manages their own operator client, and an Administrator manages anyone’s', async () => {
    const own = await call('post', `/clients/${contact.clientId}/secrets`, contact.token, {});
    expect(own.status).toBe(201);
    expect((await call('delete', `/clients/${contact.clientId}/secrets/${own.body.keyId}`, contact.token)).status).toBe(204);
    const byAdmin = await call('post', `/clients/${contact.clientId}/secrets`, admin.token, {});
    expect(byAdmin.status).toBe(201);
    expect((await call('delete', `/clients/${contact.clientId}/secrets/${byAdmin.body.keyId}`, admin.token)).status).toBe(204);
    expect((await call('post', `/clients/${contact.clientId}/disable`, admin.token)).body.state).toBe('disabled');
    expect((await call('post', `/clients/${contact.clientId}/enable`, admin.token)).body.state).toBe('active');
    expect((await call('post', '/clients', admin.token, { displayName: 'for contact', ownerUserId: contact.user.id })).status).toBe(201);
  });

  it("a partner's client stays the ContactPersons' to manage", async () => {
    const plain = await call('post', '/users', admin.token, { username: 'partner', email: 'p@example.com', displayName: 'P', password: 'generate' });
    const owned = await call('post', '/clients', admin.token, { displayName: 'partner tool', ownerUserId: plain.body.id });
    expect(owned.status).toBe(201);
    const minted = await call('post', `/clients/${owned.body.clientId}/secrets`, peer.token, {});
    expect(minted.status).toBe(201);
    expect((await call('delete', `/clients/${owned.body.clientId}/secrets/${minted.body.keyId}`, contact.token)).status).toBe(204);
    expect((await call('post', `/clients/${owned.body.clientId}/disable`, peer.token)).status).toBe(200);
  });

  it('the rule sits in the use case: a direct call with a peer as actor is refused too', async () => {
    const asPeer: Actor = { type: 'user', userId: peer.user.id, clientId: null, permissions: permissionsOf(['ContactPerson']) };
    const clients = app.get(ClientService);
    await expect(clients.issueSecret(tenant.tenantId, asPeer, admin.clientId, {})).rejects.toMatchObject({ code: 'owner_privileged' });
    await expect(clients.disable(tenant.tenantId, asPeer, admin.clientId)).rejects.toMatchObject({ code: 'owner_privileged' });
    await expect(
      app.get(DataSource).transaction((em) => clients.requireManageable(tenant.tenantId, asPeer, admin.clientId, em)),
    ).rejects.toMatchObject({ code: 'owner_privileged' });
  });

  it('the rule follows the owner: a partner who is given a role takes their clients out of the ContactPersons’ reach', async () => {
    const user = await call('post', '/users', admin.token, { username: 'promoted', email: 'pr@example.com', displayName: 'Pr', password: 'generate' });
    const owned = await call('post', '/clients', admin.token, { displayName: 'their tool', ownerUserId: user.body.id });
    expect((await call('post', `/clients/${owned.body.clientId}/secrets`, contact.token, {})).status).toBe(201);
    expect((await call('patch', `/users/${user.body.id}`, admin.token, { roles: ['Auditor'] })).status).toBe(200);
    expect((await call('post', `/clients/${owned.body.clientId}/secrets`, contact.token, {})).status).toBe(403);
  });
});
