import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { makeCertificate } from './support/client-certificates.js';
import { type ConsoleFixtures, type StaffMember, csrfOf, formBody } from './support/console.js';
import { CatalogConsole } from './support/console-catalog.js';

/** A client's credentials in the console: secrets after a step-up, certificates, handovers, state (SECURITY.md 45, 49, 50). */
describe('console: client credentials', () => {
  const env = new CatalogConsole();
  let admin: INestApplication;
  let origin: string;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let carla: StaffMember; // ContactPerson
  let ordersApi: { id: string; identifier: string };
  const logs = env.logs;
  const newClient = (name: string, contact?: string) => env.newClient(name, contact);
  const events = (action: string, target: string) => env.events(action, target);

  beforeAll(async () => {
    await env.start();
    ({ admin, origin, db, staff, tenantId } = env.app);
    ({ carla, ordersApi } = env);
  }, 60_000);

  afterAll(() => env.stop());

  it('a new secret needs a fresh second factor, is shown once with the snippet, works at the token endpoint, and is in no other page or audit body', async () => {
    const client = await newClient('Reporting');
    await admin
      .get(ClientService)
      .setScopes(tenantId, SYSTEM_ACTOR, client.clientId, [`${ordersApi.identifier}/Orders.Read`]);
    const path = `/console/clients/${client.clientId}`;
    const agent = await staff.signIn(carla);
    const invalid = await staff.post(agent, `${path}/secrets/new`, `${path}/secrets`, {
      displayName: 'production',
      expiresInDays: '9000',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.text).toMatch(/id="expiresInDays"[^>]*value="9000"[^>]*aria-invalid="true"/);
    await env.ageSecondFactor(carla.id);
    const asked = await staff.post(agent, `${path}/secrets/new`, `${path}/secrets`, {
      displayName: 'production',
      expiresInDays: '30',
    });
    expect(asked.text).toContain('Confirm it is you');
    expect(asked.text).toContain('<input type="hidden" name="displayName" value="production" />');
    expect(await db.query(`SELECT 1 FROM client_secrets`)).toHaveLength(0);
    const shown = await agent
      .post(`${path}/secrets`)
      .set('Origin', origin)
      .type('form')
      .send(
        formBody({
          _csrf: csrfOf(asked.text),
          displayName: 'production',
          expiresInDays: '30',
          _stepup_code: await staff.secondFactor(carla),
        }),
      );
    expect(shown.status).toBe(200);
    expect(shown.headers['cache-control']).toBe('no-store');
    expect(shown.text).toContain('Secret created. Copy it now: it will not be shown again.');
    expect(shown.text).toContain('reloading it or coming back to it later shows only that it was shown');
    const secret = /<code class="secret" id="client-secret" data-copy="client secret">([^<]+)<\/code>/.exec(
      shown.text,
    )![1]!;
    expect(secret).toMatch(/^gte_/);
    expect(shown.text).toContain(`--data-urlencode &#39;client_secret=${secret}&#39;`);
    expect(shown.text).toContain(`--data-urlencode &#39;scope=api://orders/.default&#39;`);
    const token = await env.tokenRequest(client.clientId, secret);
    expect(token.status).toBe(200);
    expect(token.body.access_token).toBeTruthy();
    const detail = await agent.get(path);
    expect(detail.text).not.toContain(secret);
    expect(detail.text).toContain(`${secret.slice(4, 7)}…`); // the hint
    const [created] = await events('client.secret.created', client.clientId);
    expect(created).toMatchObject({ actor_id: carla.id, actor_client_id: null });
    expect(JSON.stringify(await db.query(`SELECT details FROM audit_events`))).not.toContain(secret.slice(4));
    expect(logs.text).toContain(`/console/clients/${client.clientId}/secrets`); // the access log saw the request
    expect(logs.text).not.toContain(secret.slice(4));

    const confirm = await agent.get(`${path}/secrets/${created.details.keyId}/revoke`).expect(200);
    expect(confirm.text).toContain('Clients using this secret will fail at the next token request.');
    expect(confirm.text).toContain('production');
    const revoked = await staff.post(
      agent,
      `${path}/secrets/${created.details.keyId}/revoke`,
      `${path}/secrets/${created.details.keyId}/revoke`,
      {},
    );
    expect(revoked.status).toBe(303);
    expect((await agent.get(revoked.headers.location!)).text).toContain('Secret revoked');
    expect((await env.tokenRequest(client.clientId, secret)).status).toBe(401);
    expect(await events('client.secret.revoked', client.clientId)).toEqual([
      expect.objectContaining({ actor_id: carla.id }),
    ]);
  });

  it('certificates: a bad PEM comes back as typed with the reason; a good one is listed and removed after a confirmation', async () => {
    const client = await newClient('Signer');
    const path = `/console/clients/${client.clientId}`;
    const agent = await staff.signIn(carla);
    const bad = await staff.post(agent, `${path}/certificates/new`, `${path}/certificates`, {
      certificate: 'not a certificate',
      displayName: 'laptop',
    });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*>\s*not a certificate<\/textarea/);
    const certificate = makeCertificate();
    const added = await staff.post(agent, `${path}/certificates/new`, `${path}/certificates`, {
      certificate: certificate.pem,
      displayName: 'daemon 2027',
    });
    expect(added.status).toBe(303);
    const page = await agent.get(path);
    const [row] = await db.query(`SELECT key_id, thumbprint FROM client_certificates`);
    expect(page.text).toContain(row.thumbprint);
    expect(page.text).toContain('daemon 2027');
    const confirm = await agent.get(`${path}/certificates/${row.key_id}/remove`).expect(200);
    expect(confirm.text).toContain('Clients signing with this certificate will fail at the next token request.');
    const removed = await staff.post(
      agent,
      `${path}/certificates/${row.key_id}/remove`,
      `${path}/certificates/${row.key_id}/remove`,
      {},
    );
    expect(removed.status).toBe(303);
    expect(await db.query(`SELECT 1 FROM client_certificates`)).toEqual([]);
    expect((await events('client.certificate.removed', client.clientId))[0]).toMatchObject({ actor_id: carla.id });
  });

  it('send credentials: the handover is listed as pending and revoked after a confirmation; disable and enable', async () => {
    const client = await newClient('Handed', 'handed-ops@partner.example');
    const path = `/console/clients/${client.clientId}`;
    const agent = await staff.signIn(carla);
    const detail = await agent.get(path);
    expect(detail.text.indexOf('Send credentials')).toBeLessThan(detail.text.indexOf('New secret')); // the first choice
    const wrong = await staff.post(agent, `${path}/handovers/new`, `${path}/handovers`, {
      recipientEmail: 'a@x.example, b@x.example',
      expiresInHours: '',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/id="recipientEmail"[^>]*value="a@x.example, b@x.example"[^>]*aria-invalid="true"/);
    const sent = await staff.post(agent, `${path}/handovers/new`, `${path}/handovers`, {
      recipientEmail: '',
      expiresInHours: '24',
    });
    expect(sent.status).toBe(303);
    const page = await agent.get(path);
    expect(page.text).toContain('Link sent to handed-ops@partner.example');
    const [handover] = await db.query(
      `SELECT h.id FROM credential_handovers h JOIN api_clients c ON c.id = h.api_client_id WHERE c.client_id = $1`,
      [client.clientId],
    );
    expect((await agent.get(`${path}/handovers/${handover.id}/revoke`)).text).toContain('The link stops working');
    const revoked = await staff.post(agent, path, `${path}/handovers/${handover.id}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect((await db.query(`SELECT status FROM credential_handovers WHERE id = $1`, [handover.id]))[0].status).toBe(
      'revoked',
    );
    expect((await events('client.handover.revoked', client.clientId))[0]).toMatchObject({ actor_id: carla.id });

    expect((await agent.get(`${path}/disable`)).text).toContain('Its next token request fails');
    const disabled = await staff.post(agent, `${path}/disable`, `${path}/disable`, {});
    expect((await agent.get(disabled.headers.location!)).text).toContain('Handed is disabled');
    const enabled = await staff.post(agent, path, `${path}/enable`, {});
    expect((await agent.get(enabled.headers.location!)).text).toContain('Handed is enabled and awaits scopes.');
    expect((await events('client.disabled', client.clientId))[0]).toMatchObject({ actor_id: carla.id });
  });

  it("a contact person cannot mint for a staff member's operator client: 403, nothing minted", async () => {
    const owner = await staff.staff(tenantId, ['ITDepartment']);
    const operatorClient = await admin
      .get(ClientService)
      .create(tenantId, SYSTEM_ACTOR, { displayName: 'Ivan CLI', ownerUserId: owner.id });
    const agent = await staff.signIn(carla);
    const page = await agent.get(`/console/clients/${operatorClient.clientId}`).expect(200);
    expect(page.text).not.toContain('New secret');
    const forced = await staff.post(
      agent,
      `/console/clients/${operatorClient.clientId}`,
      `/console/clients/${operatorClient.clientId}/secrets`,
      {},
    );
    expect(forced.status).toBe(403);
    expect(
      await db.query(
        `SELECT 1 FROM client_secrets s JOIN api_clients c ON c.id = s.api_client_id WHERE c.client_id = $1`,
        [operatorClient.clientId],
      ),
    ).toEqual([]);
  });
});
