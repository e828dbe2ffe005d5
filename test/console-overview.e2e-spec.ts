import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { ClientService } from '@gatehouse/clients';
import { DocService } from '@gatehouse/docs';
import { InvitationService } from '@gatehouse/invitations';
import { AccessRequestService } from '@gatehouse/requests';
import { type ConsoleApp, startConsoleApp } from './support/console.js';

/** Numbers of the cards on an Overview page, by label. */
function cards(text: string): Record<string, number> {
  const found: Record<string, number> = {};
  for (const m of text.matchAll(/<span class="card-figure[^"]*">(\d+)<\/span>\s*<span class="card-label">([^<]+)<\/span>/g)) {
    found[m[2]!] = Number(m[1]);
  }
  return found;
}

/** The Overview: each person's work queues, counted for their roles, linked to the filtered lists. */
describe('console overview', () => {
  let app: ConsoleApp;

  beforeAll(async () => {
    app = await startConsoleApp();
    const { admin, tenantId, db } = app;
    const clients = admin.get(ClientService);
    await clients.create(tenantId, SYSTEM_ACTOR, { displayName: 'Orders sync' }); // awaiting scopes
    const client = await clients.create(tenantId, SYSTEM_ACTOR, { displayName: 'Billing' });
    await clients.issueSecret(tenantId, SYSTEM_ACTOR, client.clientId, { expiresInDays: 10 });
    await clients.issueSecret(tenantId, SYSTEM_ACTOR, client.clientId, { expiresInDays: 200 });
    await admin.get(DocService).create(tenantId, SYSTEM_ACTOR, { slug: 'guide', title: 'Guide', body: 'Hi' });
    const [{ id: userId }] = await db.query(
      `INSERT INTO users (tenant_id, username, username_normalized, email, display_name, locked_until)
       VALUES ($1, 'pat', 'pat', 'pat@partner.example', 'Pat', now() + interval '10 minutes') RETURNING id`,
      [tenantId],
    );
    await admin.get(InvitationService).create(tenantId, SYSTEM_ACTOR, { userId, sections: ['guide'], expiresInHours: 24 });
    await db.query(`UPDATE emails SET status = 'abandoned' WHERE to_address = 'pat@partner.example'`);
    await admin.get(AccessRequestService).file(tenantId, SYSTEM_ACTOR, {
      requesterName: 'Quinn',
      requesterEmail: 'quinn@partner.example',
      organisation: 'Partner Ltd',
      account: { documentation: 'Guide', reason: 'Integration' },
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('a contact person sees their queues with the numbers, each linked to its filtered list', async () => {
    const carla = await app.staff.staff(app.tenantId, ['ContactPerson']);
    const page = await (await app.staff.signIn(carla)).get('/console').expect(200);
    expect(cards(page.text)).toEqual({
      'Access requests to decide': 1,
      'Secrets expiring within 30 days': 1,
      'Mail not delivered': 1,
      'Invitations expiring within 48 hours': 1,
      'Locked accounts': 1,
      'Handovers expired without being revealed': 0,
    });
    expect(page.text).toContain('href="/console/requests?status=submitted"');
    expect(page.text).toContain('href="/console/users?status=locked"');
    expect(page.text).not.toContain('Recent activity'); // no Audit.Read
  });

  it('the IT department sees clients awaiting scopes; an auditor no queue but the recent activity', async () => {
    const ivan = await app.staff.staff(app.tenantId, ['ITDepartment']);
    expect(cards((await (await app.staff.signIn(ivan)).get('/console')).text)).toEqual({ 'Clients awaiting scopes': 2 }); // both clients have no scope yet
    const audra = await app.staff.staff(app.tenantId, ['Auditor']);
    const page = (await (await app.staff.signIn(audra)).get('/console')).text;
    expect(cards(page)).toEqual({});
    expect(page).toContain('Your roles have no work queues');
    expect(page).toContain('Recent activity');
    expect(page.match(/<tr>/g)?.length).toBe(11); // a header row and the last ten events
  });
});
