import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminFixtures, type TenantFixture } from './support/admin-fixtures.js';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, pagerLink, startConsoleApp } from './support/console.js';

const SEEDED = 120;
const rowsOf = (page: string) => [...page.matchAll(/<time datetime="([^"]+)" data-local>/g)].map((m) => m[1]!);

/** The Audit page group over HTTP: filters in the URL, paging both ways, CSV export, permissions; REST `before` paging. */
describe('console: audit', () => {
  let app: ConsoleApp;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let auditor: StaffMember;
  let ada: StaffMember;
  /** When the events were seeded: the time-range filter is checked against it, however long the run takes. */
  const seededAt = new Date();

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ db, staff, tenantId } = app);
    auditor = await staff.staff(tenantId, ['Auditor'], { username: 'audrey' });
    ada = await staff.staff(tenantId, ['Administrator'], { username: 'ada' });
    // 120 events a second apart, a minute ago and older: two kinds of action, three targets.
    await db.query(
      `INSERT INTO audit_events (tenant_id, occurred_at, actor_type, actor_id, actor_name, actor_username, action, target_type, target_id, details, source_address)
       SELECT $1, $3::timestamptz - interval '1 minute' - make_interval(secs => i), 'user', $2, 'Ada Example', 'ada',
              CASE WHEN i % 2 = 0 THEN 'demo.even' ELSE 'demo.odd' END, 'client', 'target-' || (i % 3), '{}', '192.0.2.' || i
         FROM generate_series(1, ${SEEDED}) i`,
      [tenantId, ada.id, seededAt.toISOString()],
    );
    await db.query(
      `INSERT INTO audit_events (tenant_id, occurred_at, actor_type, actor_id, action, target_type, target_id, details)
       VALUES ($1, now() - interval '3 hours', 'system', NULL, 'demo.tricky', 'thing, "quoted"', '=HYPERLINK("http://evil.example","x")', '{}')`,
      [tenantId],
    );
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('pages 50 rows at a time both ways, keeping the filters in every link', async () => {
    const agent = await staff.signIn(auditor);
    const first = await agent.get('/console/audit?action=demo.*').expect(200);
    expect(first.text).toContain('<h1');
    const firstRows = rowsOf(first.text);
    expect(firstRows).toHaveLength(50);
    expect(pagerLink(first.text, 'prev')).toBeUndefined();
    const olderUrl = pagerLink(first.text, 'next')!;
    expect(olderUrl).toMatch(/^\/console\/audit\?action=demo\.\*&cursor=/);

    const second = await agent.get(olderUrl).expect(200);
    const secondRows = rowsOf(second.text);
    expect(secondRows).toHaveLength(50);
    expect(secondRows[0]! < firstRows[49]!).toBe(true);
    const third = await agent.get(pagerLink(second.text, 'next')!).expect(200);
    expect(rowsOf(third.text)).toHaveLength(SEEDED + 1 - 100); // the tricky one three hours back is last
    expect(pagerLink(third.text, 'next')).toBeUndefined();

    const newerUrl = pagerLink(third.text, 'prev')!;
    expect(newerUrl).toMatch(/^\/console\/audit\?action=demo\.\*&before=/);
    const backToSecond = await agent.get(newerUrl).expect(200);
    expect(rowsOf(backToSecond.text)).toEqual(secondRows);
    const backToFirst = await agent.get(pagerLink(backToSecond.text, 'prev')!).expect(200);
    expect(rowsOf(backToFirst.text)).toEqual(firstRows);
    expect(pagerLink(backToFirst.text, 'prev')).toBeUndefined();
  });

  it('filters by actor, action, target and time range; a bad value stays in the form with its message', async () => {
    const agent = await staff.signIn(auditor);
    const target = await agent.get('/console/audit?target=target-0&action=demo.even').expect(200);
    expect(rowsOf(target.text)).toHaveLength(SEEDED / 6);
    expect(target.text).toMatch(/id="target"[^>]*value="target-0"/);

    const window = await agent.get('/console/audit?actor=' + ada.id).expect(200);
    expect(window.text).toContain('Ada Example');
    const since = new Date(seededAt.getTime() - 60_000 - 10_500).toISOString().slice(0, 19); // no zone: read as UTC
    const until = new Date(seededAt.getTime() - 60_000 - 5_500).toISOString().slice(0, 19).replace('T', ' ');
    const ranged = await agent.get(`/console/audit?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}`).expect(200);
    expect(rowsOf(ranged.text)).toHaveLength(5);

    const bad = await agent.get('/console/audit?since=yesterday&action=DROP%20TABLE').expect(400);
    expect(bad.text).toMatch(/id="since"[^>]*value="yesterday"[^>]*aria-invalid="true"/);
    expect(bad.text).toMatch(/id="since-error">From must be a date that exists/);
    expect(bad.text).toMatch(/id="action-error">Action is a dotted name/);

    const none = await agent.get('/console/audit?target=nothing-here').expect(200);
    expect(none.text).toContain('No events match these filters');
    expect((await agent.get('/console/audit?cursor=not-a-cursor')).status).toBe(400);
  });

  it('exports the filtered events as CSV, escaped and safe from spreadsheet formulas', async () => {
    const agent = await staff.signIn(auditor);
    const csv = await agent.get('/console/audit/export.csv?action=demo.*').buffer(true).parse((res, done) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => done(null, text));
    });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-acme-\d{8}T\d{6}\.csv"$/);
    expect(csv.headers['cache-control']).toBe('no-store');
    const lines = (csv.body as string).split('\r\n');
    expect(lines[0]).toBe('time_utc,actor,actor_username,actor_user_id,actor_client_id,action,target_type,target_name,target_id,source_address,request_id');
    expect(lines).toHaveLength(1 + SEEDED + 1 + 1); // header, rows, the tricky one, the empty after the last CRLF
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z,Ada Example,ada,${ada.id},,demo\\.(even|odd),client,,target-\\d,192\\.0\\.2\\.1,$`));
    expect(lines[SEEDED + 1]).toBe(
      `${lines[SEEDED + 1]!.split(',')[0]},Gatehouse,,,,demo.tricky,"thing, ""quoted""",,"'=HYPERLINK(""http://evil.example"",""x"")",,`,
    );
    const filtered = await agent.get('/console/audit/export.csv?target=target-1&action=demo.odd').expect(200);
    expect(filtered.text.trim().split('\r\n')).toHaveLength(1 + SEEDED / 6);
    expect((await agent.get('/console/audit/export.csv?since=soon')).status).toBe(400);
  });

  it('bounds an export to the newest 10,000 events of the filter, written as it goes', async () => {
    await db.query(
      `INSERT INTO audit_events (tenant_id, occurred_at, actor_type, action, target_type, target_id, details)
       SELECT $1, now() - interval '2 days' - make_interval(secs => i), 'system', 'bulk.row', 'thing', 'row-' || i, '{}'
         FROM generate_series(1, 10050) i`,
      [tenantId],
    );
    const agent = await staff.signIn(auditor);
    const csv = await agent.get('/console/audit/export.csv?action=bulk.*').expect(200);
    expect(csv.headers['transfer-encoding']).toBe('chunked');
    const lines = csv.text.trim().split('\r\n');
    expect(lines).toHaveLength(1 + 10_000);
    expect(lines[1]).toContain(',row-1,');
    expect(lines[10_000]).toContain(',row-10000,');
    await db.query(`DELETE FROM audit_events WHERE action = 'bulk.row'`);
  });

  it('shows the person and the source address of a console change', async () => {
    const agent = await staff.signIn(ada);
    const invited = await staff.post(agent, '/console/staff/invite', '/console/staff/invite', { email: 'pat@acme.example', role: 'Auditor', displayName: 'Pat' });
    expect(invited.status).toBe(303);
    const reader = await staff.signIn(auditor);
    const page = await reader.get('/console/audit?action=user.staff_invited').expect(200);
    expect(rowsOf(page.text)).toHaveLength(1);
    expect(page.text).toContain('Ada Example');
    expect(page.text).toMatch(/<code>(::ffff:)?127\.0\.0\.1<\/code>/);
    const [event] = await db.query(`SELECT actor_id, actor_client_id, source_address FROM audit_events WHERE action = 'user.staff_invited'`);
    expect(event).toMatchObject({ actor_id: ada.id, actor_client_id: null });
    expect(event.source_address).toMatch(/127\.0\.0\.1$/);
    const logins = await db.query(`SELECT source_address FROM audit_events WHERE action = 'user.login.succeeded' AND actor_id = $1`, [ada.id]);
    expect(logins.length).toBeGreaterThan(0);
    for (const login of logins) expect(login.source_address).toMatch(/127\.0\.0\.1$/);
  });

  it('is only for roles that read the audit log: the sidebar and a forced URL', async () => {
    const carla = await staff.staff(tenantId, ['ContactPerson']);
    const agent = await staff.signIn(carla);
    const overview = await agent.get('/console').expect(200);
    expect(overview.text).not.toContain('href="/console/audit"');
    expect((await agent.get('/console/audit')).status).toBe(403);
    const csv = await agent.get('/console/audit/export.csv');
    expect(csv.status).toBe(403);
    expect(csv.headers['content-type']).toMatch(/^text\/html/);
    const reader = await staff.signIn(auditor);
    expect((await reader.get('/console').expect(200)).text).toContain('href="/console/audit"');
    const byPath = await reader.get('/t/acme/console/audit?action=demo.*').expect(200);
    expect(pagerLink(byPath.text, 'next')).toMatch(/^\/t\/acme\/console\/audit\?action=demo\.\*&cursor=/);
  });

  describe('REST: GET /admin/v1/audit-events pages both ways', () => {
    let tenant: TenantFixture;
    let token: string;
    const get = (query: string) => request(app.admin.getHttpServer()).get(`/admin/v1/audit-events${query}`).set('authorization', `Bearer ${token}`);

    beforeAll(async () => {
      const fixtures = new AdminFixtures(app.admin, app.config);
      tenant = await fixtures.tenant();
      token = (await fixtures.operator(tenant, ['Administrator'])).token;
      await db.query(
        `INSERT INTO audit_events (tenant_id, occurred_at, actor_type, action, target_type, details)
         SELECT $1, now() - make_interval(secs => i), 'system', 'demo.rest', 'thing', '{}' FROM generate_series(1, 25) i`,
        [tenant.tenantId],
      );
    });

    it('cursor goes older, before goes newer, prevCursor is null on the newest page', async () => {
      const first = (await get('?action=demo.rest&limit=10').expect(200)).body;
      expect(first.prevCursor).toBeNull();
      const second = (await get(`?action=demo.rest&limit=10&cursor=${first.nextCursor}`).expect(200)).body;
      const third = (await get(`?action=demo.rest&limit=10&cursor=${second.nextCursor}`).expect(200)).body;
      expect(third.items).toHaveLength(5);
      expect(third.nextCursor).toBeNull();
      const back = (await get(`?action=demo.rest&limit=10&before=${third.prevCursor}`).expect(200)).body;
      expect(back.items.map((e: { id: string }) => e.id)).toEqual(second.items.map((e: { id: string }) => e.id));
      const top = (await get(`?action=demo.rest&limit=10&before=${back.prevCursor}`).expect(200)).body;
      expect(top).toEqual(first);
      const both = await get(`?cursor=${first.nextCursor}&before=${back.prevCursor}`).expect(400);
      expect(JSON.stringify(both.body)).toContain('before cannot be combined with cursor');
      const until = (await get(`?action=demo.rest&until=${encodeURIComponent(first.items[4].occurredAt)}`).expect(200)).body;
      expect(until.items).toHaveLength(20);
      expect(first.items[0]).toHaveProperty('sourceAddress', null);
    });

    it('actor = the person or the client: both kinds merged newest first, once each, paged both ways', async () => {
      const actor = randomUUID();
      // 30 events a second apart: as the person (i % 3 = 0), through the client (1), or both (2).
      await db.query(
        `INSERT INTO audit_events (tenant_id, occurred_at, actor_type, actor_id, actor_client_id, action, target_type, details)
         SELECT $1, now() - make_interval(secs => i), 'user',
                CASE WHEN i % 3 <> 1 THEN $2 END, CASE WHEN i % 3 <> 0 THEN $2 END, 'demo.actor' || i, 'thing', '{}'
           FROM generate_series(1, 30) i`,
        [tenant.tenantId, actor],
      );
      const expected = Array.from({ length: 30 }, (_, i) => `demo.actor${i + 1}`);
      const pages: string[][] = [];
      let query = `?actor=${actor}&limit=8`;
      for (;;) {
        const page = (await get(query).expect(200)).body;
        pages.push(page.items.map((e: { action: string }) => e.action));
        if (!page.nextCursor) break;
        query = `?actor=${actor}&limit=8&cursor=${page.nextCursor}`;
      }
      expect(pages.flat()).toEqual(expected);
      expect(pages.map((page) => page.length)).toEqual([8, 8, 8, 6]);
      const last = (await get(query).expect(200)).body;
      const back = (await get(`?actor=${actor}&limit=8&before=${last.prevCursor}`).expect(200)).body;
      expect(back.items.map((e: { action: string }) => e.action)).toEqual(expected.slice(16, 24));
    });
  });
});
