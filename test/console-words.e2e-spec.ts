import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserService } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { OutboxDeliveryService, passwordChangedEmail } from '@gatehouse/mail';
import { TenantSettingsService } from '@gatehouse/provisioning';
import { AccessRequestService } from '@gatehouse/requests';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, csrfOf, pagerLink, startConsoleApp } from './support/console.js';
import { SmtpSink } from './support/smtp-sink.js';

const SLUG = 'zq-tenant-slug';
const ROLE_IDS = /\b(ContactPerson|ITDepartment)\b/;

/** What a page says to a person: its text without tags, scripts and attributes. */
function visibleText(page: string): string {
  return page
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/**
 * One vocabulary and the way forward (CONSOLE.md "Daily work"), over HTTP: roles, states, the tenant
 * and validation in people's words on every page and mail; empty prerequisites that link to where
 * they are made; the sign-in page's way back in; a used activation link that says what to do.
 */
describe('console: one vocabulary and the way forward', () => {
  let app: ConsoleApp;
  let admin: INestApplication;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let ada: StaffMember;
  let carla: StaffMember;
  let ivan: StaffMember;
  let carlaAgent: request.Agent;
  const sink = new SmtpSink();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    await sink.start();
    app = await startConsoleApp({ slug: SLUG, displayName: 'Acme Logistics', config: { smtpUrl: sink.url } });
    ({ admin, db, staff, tenantId } = app);
    ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    ivan = await staff.staff(tenantId, ['ITDepartment'], { username: 'ivan' });
    const requests = admin.get(AccessRequestService);
    ids.rita = (
      await requests.file(tenantId, SYSTEM_ACTOR, {
        requesterName: 'Rita Requester', requesterEmail: 'rita@partner.example', organisation: 'Partner Ltd',
        api: { systemName: 'Orders sync', technicalContactEmail: 'ops@partner.example', purpose: 'Reads new orders.' },
      })
    ).id;
    ids.otto = (
      await requests.file(tenantId, SYSTEM_ACTOR, {
        requesterName: 'Otto Other', requesterEmail: 'otto@other.example', organisation: 'Other GmbH',
        account: { documentation: 'Billing', reason: 'Invoices.' },
      })
    ).id;
    ids.bea = (
      await requests.file(tenantId, SYSTEM_ACTOR, {
        requesterName: 'Bea Alpha', requesterEmail: 'bea@alpha.example', organisation: 'Alpha AG',
        account: { documentation: 'Orders', reason: 'Integration.' },
      })
    ).id;
    carlaAgent = await staff.signIn(carla);
  }, 90_000);

  afterAll(async () => {
    await app?.close();
    await sink.stop();
  });

  it('names roles, states and the tenant in words; validation names the field', async () => {
    const overview = await carlaAgent.get('/console').expect(200);
    expect(visibleText(overview.text)).toContain('Signed in to Acme Logistics as Contact person.');

    const queue = await carlaAgent.get('/console/requests').expect(200);
    expect(queue.text).toMatch(/class="badge warn">waiting for a decision<\/span>/);
    expect(queue.text).toMatch(/<option value="submitted" selected>\s*waiting for a decision\s*<\/option>/);

    const tooLong = await staff.post(carlaAgent, '/console/clients/new', '/console/clients/new', { displayName: 'x'.repeat(201), contactEmail: 'nope' });
    expect(tooLong.status).toBe(400);
    expect(tooLong.text).toContain('Display name must be at most 200 characters.');
    expect(tooLong.text).toContain('Enter a valid email address.');
    expect(tooLong.text).not.toMatch(/shorter than or equal|must be an email/);

    const adaAgent = await staff.signIn(ada);
    const invited = await staff.post(adaAgent, '/console/staff/invite', '/console/staff/invite', { email: 'iris@acme.example', role: 'ITDepartment', displayName: 'Iris IT' });
    expect(invited.status).toBe(303);
    ids.iris = /\/console\/staff\/([0-9a-f-]{36})/.exec(invited.headers.location!)![1]!;

    const pages: Array<[request.Agent, string]> = [
      [carlaAgent, '/console'],
      [carlaAgent, '/console/requests'],
      [carlaAgent, '/console/requests?status=all'],
      [carlaAgent, `/console/requests/${ids.rita}`],
      [carlaAgent, '/console/users'],
      [carlaAgent, '/console/users?role=ContactPerson'],
      [carlaAgent, '/console/clients'],
      [carlaAgent, '/console/account'],
      [adaAgent, '/console/staff'],
      [adaAgent, `/console/staff/${carla.id}`],
      [adaAgent, `/console/staff/${ids.iris}`],
      [adaAgent, `/console/users/${carla.id}`],
    ];
    for (const [agent, path] of pages) {
      const page = await agent.get(path);
      expect(page.status, path).toBe(200);
      const text = visibleText(page.text);
      expect(text, path).not.toMatch(ROLE_IDS);
      expect(text, path).not.toContain(SLUG);
    }
  });

  it('mails name roles and the tenant in words, with one time format', async () => {
    const approved = await staff.post(carlaAgent, `/console/requests/${ids.rita}`, `/console/requests/${ids.rita}/approve`, { note: '' });
    expect(approved.status).toBe(303);
    await admin.get(OutboxDeliveryService).deliverDue();
    await sink.waitFor((m) => m.envelopeTo.includes('iris@acme.example') && m.subject === 'Set up your Gatehouse console access');
    expect(sink.messages.length).toBeGreaterThanOrEqual(3);
    for (const mail of sink.messages) {
      const words = `${mail.subject}\n${mail.text}`;
      expect(words, mail.subject).not.toMatch(ROLE_IDS);
      expect(words, mail.subject).not.toContain(SLUG);
      expect(words, mail.subject).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/); // no ISO 8601 stamps: "2026-12-01 14:00 UTC"
    }
    const invitation = sink.messages.find((m) => m.envelopeTo.includes('iris@acme.example') && m.subject === 'Set up your Gatehouse console access')!;
    expect(invitation.text).toContain('as IT department');
    expect(invitation.text).toMatch(/expires at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  });

  it('empty prerequisites say so and link to where they are made; a client links to the request that made it', async () => {
    const otto = await carlaAgent.get(`/console/requests/${ids.otto}`).expect(200);
    expect(otto.text).toContain('There are no documentation sections yet');
    expect(otto.text).toContain('href="/console/docs/new"');

    const [{ client_id: clientId }] = await db.query(
      `SELECT c.client_id FROM access_requests r JOIN api_clients c ON c.id = r.api_client_id WHERE r.id = $1`,
      [ids.rita],
    );
    const forContact = await carlaAgent.get(`/console/clients/${clientId}`).expect(200);
    expect(forContact.text).toMatch(new RegExp(`<a href="/console/requests/${ids.rita}" id="origin-request">the access request of Rita Requester \\(Partner Ltd\\)</a>`));
    expect(forContact.text).toContain('The IT department adds them under <a href="/console/apis">APIs &amp; scopes</a>');
    const forIt = await (await staff.signIn(ivan)).get(`/console/clients/${clientId}`).expect(200);
    expect(forIt.text).toContain('<a href="/console/apis">Add an API and its scopes under APIs &amp; scopes</a>');
  });

  it('the sign-in page links to the password reset; the password-changed mail points there, not to the contact person', async () => {
    const fresh = await request(admin.getHttpServer()).get('/console/login').expect(200);
    expect(fresh.text).toMatch(/<a href="http:\/\/localhost:3000\/password-reset" id="forgot-password">Forgot your password\?<\/a>/);
    const mail = passwordChangedEmail({ displayName: 'Pat', username: 'pat', changedAt: new Date('2026-12-01T14:00:00Z'), resetUrl: 'https://id.example/password-reset' });
    expect(mail.text).not.toContain('contact person');
    expect(mail.text).toContain('https://id.example/password-reset');
    expect(mail.text).toContain('2026-12-01 14:00 UTC');
  });

  it('staff: no second factor, nothing to reset; a used activation link has no backticks and links to sign-in', async () => {
    const adaAgent = await staff.signIn(ada);
    const member = await adaAgent.get(`/console/staff/${ids.iris}`).expect(200);
    expect(member.text).not.toContain('/reset-mfa');
    const confirm = await adaAgent.get(`/console/staff/${ids.iris}/reset-mfa`).expect(200);
    expect(confirm.text).toContain('nothing to reset');
    expect(confirm.text).not.toContain('Reset the second factor</button>');

    const mail = sink.messages.find((m) => m.envelopeTo.includes('iris@acme.example') && m.subject === 'Set up your Gatehouse console access')!;
    const link = /https?:\/\/[^/\s]+(\/console\/activate\/[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const iris = request.agent(admin.getHttpServer());
    const form = await iris.get(link).expect(200);
    const password = 'seven quiet lanterns over the harbour';
    await iris.post(link).set('Origin', app.origin).type('form').send({ _csrf: csrfOf(form.text), newPassword: password, confirmPassword: password }).expect(303);
    const used = await request(admin.getHttpServer()).get(link);
    expect(used.status).toBe(410);
    expect(used.text).not.toContain('`');
    expect(used.text).toContain('href="/console/login"');
  });

  it('lists sort by their columns, and keyset paging walks every row once, both ways, in that order', async () => {
    const users = admin.get(UserService);
    const names = ['Zoe', 'anna', 'Émile', 'Bob', 'bob', 'Chloé', 'dan'];
    for (let i = 0; i < 112; i += 1) {
      const name = `${names[i % names.length]} ${String(i % 9)}`; // repeated names: the id breaks ties
      await users.create(tenantId, SYSTEM_ACTOR, { username: `u${i}`, email: `u${i}@partner.example`, displayName: name, password: 'none' });
    }
    const expected: string[] = (await db.query(`SELECT id FROM users WHERE tenant_id = $1 ORDER BY display_name DESC, id DESC`, [tenantId])).map(
      (r: { id: string }) => r.id,
    );
    const idsOn = (page: string) => [...page.matchAll(/<td data-label="Name"[^>]*><a href="\/console\/users\/([0-9a-f-]{36})">/g)].map((m) => m[1]!);

    const first = await carlaAgent.get('/console/users?sort=-name').expect(200);
    expect(first.text).toMatch(/<th scope="col" class=" sortable" aria-sort="descending">\s*<a href="\/console\/users\?sort=name">Name/);
    expect(first.text).toMatch(/aria-sort="none">\s*<a href="\/console\/users\?sort=username">Username/);
    const seen = idsOn(first.text);
    let page = first.text;
    for (let next = pagerLink(page, 'next'); next; next = pagerLink(page, 'next')) {
      page = (await carlaAgent.get(next).expect(200)).text;
      seen.push(...idsOn(page));
    }
    expect(seen).toEqual(expected);
    const back: string[] = [];
    for (let prev = pagerLink(page, 'prev'); prev; prev = pagerLink(page, 'prev')) {
      page = (await carlaAgent.get(prev).expect(200)).text;
      back.unshift(...idsOn(page));
    }
    expect(back).toEqual(expected.slice(0, back.length));
    expect(back.length).toBeGreaterThanOrEqual(100);

    const byOrganisation = await carlaAgent.get('/console/requests?status=all&sort=organisation').expect(200);
    const organisations = [...byOrganisation.text.matchAll(/<td data-label="Organisation"[^>]*>([^<]+)<\/td>/g)].map((m) => m[1]!.trim());
    expect(organisations).toEqual(['Alpha AG', 'Other GmbH', 'Partner Ltd']);
    const reversed = await carlaAgent.get('/console/requests?status=all&sort=-requester').expect(200);
    expect([...reversed.text.matchAll(/requests\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map((m) => m[1])).toEqual(['Rita Requester', 'Otto Other', 'Bea Alpha']);
    const badCursor = await carlaAgent.get(`/console/requests?status=all&sort=requester&after=${pagerLink(first.text, 'next')!.split('after=')[1]}`);
    expect(badCursor.status).toBe(400); // a cursor of another order is refused, not misread
  });

  it('access requests and staff are searched; the search stays with the sort', async () => {
    const found = await carlaAgent.get('/console/requests?status=all&q=other').expect(200);
    expect(found.text).toContain('Otto Other');
    expect(found.text).not.toContain('Bea Alpha');
    expect(found.text).toMatch(/<input[^>]*name="q"[^>]*value="other"/);
    const bySystem = await carlaAgent.get('/console/requests?status=all&q=orders%20sync&sort=requester').expect(200);
    expect(bySystem.text).toContain('Rita Requester');
    expect(bySystem.text).toMatch(/<input type="hidden" name="sort" value="requester"/);
    const none = await carlaAgent.get('/console/requests?q=nobody').expect(200);
    expect(visibleText(none.text)).toMatch(/No access request in this state matches “nobody”\. Clear the search ?\./);

    const adaAgent = await staff.signIn(ada);
    const carlaOnly = await adaAgent.get('/console/staff?q=CARLA').expect(200);
    expect(carlaOnly.text).toContain(`/console/staff/${carla.id}`);
    expect(carlaOnly.text).not.toContain(`/console/staff/${ivan.id}`);
    const byUsername = await adaAgent.get('/console/staff?sort=-username').expect(200);
    const usernames = [...byUsername.text.matchAll(/<td data-label="Username"[^>]*><code>([^<]+)<\/code>/g)].map((m) => m[1]);
    expect(usernames).toEqual([...usernames].sort().reverse());
    expect(usernames).toContain('ivan');
  });

  it('the tenant is renamed through its settings, and pages call it by its new name', async () => {
    const settings = admin.get(TenantSettingsService);
    const renamed = await settings.update(tenantId, SYSTEM_ACTOR, { displayName: '  Acme Freight  ' });
    expect(renamed).toMatchObject({ slug: SLUG, displayName: 'Acme Freight' });
    expect(visibleText((await carlaAgent.get('/console').expect(200)).text)).toContain('Signed in to Acme Freight as Contact person.');
    await expect(settings.update(tenantId, SYSTEM_ACTOR, { displayName: '   ' })).resolves.toMatchObject({ displayName: 'Acme Freight' });
  });
});
