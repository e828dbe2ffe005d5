import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminFixtures } from './support/admin-fixtures.js';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, csrfOf, formBody, pagerLink, startConsoleApp } from './support/console.js';

const SEEDED = 70;
const subjectsOf = (page: string) => [...page.matchAll(/<a href="\/console\/email\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map((m) => m[1]!);

/** The Email page group over HTTP: the outbox by status, paging both ways, detail without body, retry as REST does it. */
describe('console: email', () => {
  let app: ConsoleApp;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let origin: string;
  let carla: StaffMember;
  let ada: StaffMember;
  const statusOf = async (id: string) => ((await db.query(`SELECT status FROM emails WHERE id = $1`, [id]))[0] as { status: string }).status;
  const seeded = (n: number) => `Notice ${String(n).padStart(3, '0')}`;

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ db, staff, tenantId, origin } = app);
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
    // Mail n was queued n minutes after the first: every seventh abandoned, every fifth sent.
    await db.query(
      `INSERT INTO emails (id, tenant_id, to_address, subject, text_body, html_body, template, status, attempts, last_error, created_at, sent_at)
       SELECT gen_random_uuid(), $1, 'person' || i || '@example.com', 'Notice ' || lpad(i::text, 3, '0'), '\\x00', '\\x00', 'notice',
              CASE WHEN i % 7 = 0 THEN 'abandoned' WHEN i % 5 = 0 THEN 'sent' ELSE 'queued' END,
              CASE WHEN i % 7 = 0 THEN 8 ELSE 0 END,
              CASE WHEN i % 7 = 0 THEN '550 mailbox unavailable' END,
              now() - interval '1 day' + make_interval(mins => i), CASE WHEN i % 5 = 0 AND i % 7 <> 0 THEN now() END
         FROM generate_series(1, ${SEEDED}) i`,
      [tenantId],
    );
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('lists the outbox newest first, 50 rows a page, both ways, with the status filter kept', async () => {
    const agent = await staff.signIn(carla);
    const first = await agent.get('/console/email').expect(200);
    const rows = subjectsOf(first.text);
    expect(rows).toHaveLength(50);
    expect(rows[0]).toBe(seeded(SEEDED));
    expect(first.text).toContain('550 mailbox unavailable');
    expect(pagerLink(first.text, 'prev')).toBeUndefined();
    const older = await agent.get(pagerLink(first.text, 'next')!).expect(200);
    expect(subjectsOf(older.text)).toEqual(Array.from({ length: 20 }, (_, i) => seeded(20 - i)));
    expect(pagerLink(older.text, 'next')).toBeUndefined();
    const back = await agent.get(pagerLink(older.text, 'prev')!).expect(200);
    expect(subjectsOf(back.text)).toEqual(rows);

    const abandoned = await agent.get('/console/email?status=abandoned').expect(200);
    expect(subjectsOf(abandoned.text)).toEqual([70, 63, 56, 49, 42, 35, 28, 21, 14, 7].map(seeded));
    expect(abandoned.text).toMatch(/<option value="abandoned"\s+selected/);
    const sentPage = await agent.get('/console/email?status=sent').expect(200);
    expect(subjectsOf(sentPage.text)).toHaveLength(12);
    const wrong = await agent.get('/console/email?status=lost').expect(400);
    expect(wrong.text).toMatch(/id="status-error">Choose one of the statuses/);
    expect(first.text).toMatch(/href="\/console\/email"[^>]*>\s*<span>Email<\/span><span class="count"\s*>10<span class="visually-hidden"> abandoned/);
  });

  it('retries an abandoned mail as the person, the same use case and audit event as REST', async () => {
    const agent = await staff.signIn(carla);
    const [mail] = await db.query(`SELECT id FROM emails WHERE subject = $1`, [seeded(7)]);
    const detail = await agent.get(`/console/email/${mail.id}`).expect(200);
    expect(detail.text).toContain('person7@example.com');
    expect(detail.text).toContain('Retry delivery');
    const retried = await agent.post(`/console/email/${mail.id}/retry`).set('Origin', origin).type('form').send({ _csrf: csrfOf(detail.text) });
    expect(retried.status).toBe(303);
    expect(retried.headers.location).toBe(`/console/email/${mail.id}`);
    const after = await agent.get(retried.headers.location!).expect(200);
    expect(after.text).toContain('The mail to person7@example.com is queued again.');
    expect(await statusOf(mail.id)).toBe('queued');
    const events = await db.query(`SELECT actor_id, actor_client_id, details FROM audit_events WHERE action = 'email.retried' AND target_id = $1`, [mail.id]);
    expect(events).toEqual([{ actor_id: carla.id, actor_client_id: null, details: { previousStatus: 'abandoned', attempts: 8 } }]);

    const again = await agent.post(`/console/email/${mail.id}/retry`).set('Origin', origin).type('form').send({ _csrf: csrfOf(after.text) });
    expect(again.status).toBe(409);
    expect(again.text).toContain('An email in status queued cannot be retried.');
    expect((await agent.get('/console/email/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('never shows a body: a mail with a one-time link shows only its envelope', async () => {
    const admin = await staff.signIn(ada);
    const invited = await staff.post(admin, '/console/staff/invite', '/console/staff/invite', { email: 'pat@acme.example', role: 'Auditor' });
    expect(invited.status).toBe(303);
    const agent = await staff.signIn(carla);
    const mails = await db.query(`SELECT id FROM emails WHERE to_address = 'pat@acme.example'`);
    expect(mails).toHaveLength(1); // the console's activation link, nothing else
    const page = await agent.get(`/console/email/${mails[0].id}`).expect(200);
    expect(page.text).toContain('<h1>Set up your Gatehouse console access</h1>');
    expect(page.text).toContain('pat@acme.example');
    expect(page.text).not.toContain('/activate/');
    expect(page.text).toContain('The message itself is not shown');
  });

  it('refuses other roles, forged forms and missing CSRF tokens, changing nothing', async () => {
    const [mail] = await db.query(`SELECT id FROM emails WHERE subject = $1`, [seeded(14)]);
    const auditor = await staff.staff(tenantId, ['Auditor']);
    const reader = await staff.signIn(auditor);
    const home = await reader.get('/console').expect(200);
    expect(home.text).not.toContain('href="/console/email"');
    expect((await reader.get('/console/email')).status).toBe(403);
    const forced = await reader.post(`/console/email/${mail.id}/retry`).set('Origin', origin).type('form').send(formBody({ _csrf: csrfOf(home.text) }));
    expect(forced.status).toBe(403);
    const agent = await staff.signIn(carla);
    const noToken = await agent.post(`/console/email/${mail.id}/retry`).set('Origin', origin).type('form').send({});
    expect(noToken.status).toBe(403);
    const page = await agent.get(`/console/email/${mail.id}`);
    const crossSite = await agent.post(`/console/email/${mail.id}/retry`).set('Origin', 'https://evil.example').type('form').send({ _csrf: csrfOf(page.text) });
    expect(crossSite.status).toBe(403);
    expect(await statusOf(mail.id)).toBe('abandoned');
  });

  it('REST: newest first on request, before pages back, one mail by id', async () => {
    const fixtures = new AdminFixtures(app.admin, app.config);
    const tenant = await fixtures.tenant();
    const { token } = await fixtures.operator(tenant, ['ContactPerson']);
    await db.query(
      `INSERT INTO emails (id, tenant_id, to_address, subject, text_body, html_body, template, created_at)
       SELECT gen_random_uuid(), $1, 'r' || i || '@example.com', 'R' || i, '\\x00', '\\x00', 'notice', now() - make_interval(mins => i)
         FROM generate_series(1, 7) i`,
      [tenant.tenantId],
    );
    const get = (path: string) => request(app.admin.getHttpServer()).get(`/admin/v1/emails${path}`).set('authorization', `Bearer ${token}`);
    const first = (await get('?order=newest&limit=3').expect(200)).body;
    expect(first.items.map((e: { subject: string }) => e.subject)).toEqual(['R1', 'R2', 'R3']);
    expect(first.prevCursor).toBeNull();
    const second = (await get(`?order=newest&limit=3&cursor=${first.nextCursor}`).expect(200)).body;
    expect(second.items.map((e: { subject: string }) => e.subject)).toEqual(['R4', 'R5', 'R6']);
    expect((await get(`?order=newest&limit=3&before=${second.prevCursor}`).expect(200)).body).toEqual(first);
    const oldest = (await get('?limit=3').expect(200)).body;
    expect(oldest.items.map((e: { subject: string }) => e.subject)).toEqual(['R7', 'R6', 'R5']);
    const one = (await get(`/${first.items[0].id}`).expect(200)).body;
    expect(one).toMatchObject({ to: 'r1@example.com', subject: 'R1', status: 'queued' });
    expect(Object.keys(one)).not.toContain('textBody');
    expect((await get(`/${second.items[0].id}x`)).status).toBe(404);
  });
});
