import request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserService } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { DocService } from '@gatehouse/docs';
import { InvitationService } from '@gatehouse/invitations';
import { AdminFixtures } from './support/admin-fixtures.js';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, csrfOf, formBody, startConsoleApp } from './support/console.js';

const HOSTILE = [
  '# Orders API',
  '',
  'Call **POST /orders**.',
  '',
  '<script>alert("x")</script>',
  '',
  '[click me](javascript:alert(1)) and [docs](https://example.com/docs)',
  '',
  '<img src="x" onerror="alert(2)"> <a href="JaVaScRiPt:alert(3)">tricky</a>',
].join('\n');

const previewOf = (page: string) => /<section class="panel preview"[\s\S]*?<article>([\s\S]*?)<\/article>/.exec(page)?.[1];

/** The Documentation page group over HTTP: editor with sanitized preview, create, edit, delete, readers; permissions and CSRF. */
describe('console: documentation', () => {
  let app: ConsoleApp;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let origin: string;
  let carla: StaffMember;
  const sections = async () => (await db.query(`SELECT slug, title, body FROM doc_sections WHERE tenant_id = $1 ORDER BY slug`, [tenantId])) as { slug: string; title: string; body: string }[];

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ db, staff, tenantId, origin } = app);
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('previews without saving, and the preview keeps no script, event handler or javascript: link', async () => {
    const agent = await staff.signIn(carla);
    const shown = await staff.post(agent, '/console/docs/new', '/console/docs/new', { slug: 'orders-api', title: 'Orders API', body: HOSTILE, intent: 'preview' });
    expect(shown.status).toBe(200);
    const preview = previewOf(shown.text)!;
    expect(preview).toContain('<strong>POST /orders</strong>');
    expect(preview).toContain('<a href="https://example.com/docs" rel="noopener noreferrer">docs</a>');
    expect(preview).not.toMatch(/<script|onerror|javascript:|<h1/i);
    expect(shown.text).not.toMatch(/<script>alert|href="javascript:|onerror="/i); // the textarea holds the text escaped
    expect(shown.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(shown.text).toMatch(/id="slug"[^>]*value="orders-api"/);
    expect(await sections()).toEqual([]);
  });

  it('creates a section as the person; mistakes stay in the form beside their field', async () => {
    const agent = await staff.signIn(carla);
    const wrong = await staff.post(agent, '/console/docs/new', '/console/docs/new', { slug: 'Orders API', title: '', body: 'Kept *as typed*' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toMatch(/id="slug"[^>]*value="Orders API"[^>]*aria-invalid="true"/);
    expect(wrong.text).toContain('id="slug-error">Slug must be lower-case letters, digits and inner hyphens.');
    expect(wrong.text).toMatch(/id="title-error">Title is required\./);
    expect(wrong.text).toContain('>Kept *as typed*</textarea');

    const created = await staff.post(agent, '/console/docs/new', '/console/docs/new', { slug: 'orders-api', title: 'Orders API', body: HOSTILE });
    expect(created.status).toBe(303);
    expect(created.headers.location).toBe('/console/docs/orders-api');
    const page = await agent.get(created.headers.location!).expect(200);
    expect(page.text).toContain('Section &quot;Orders API&quot; created.');
    expect(page.text).toContain('Nobody can read this section yet.');
    expect(await sections()).toEqual([{ slug: 'orders-api', title: 'Orders API', body: HOSTILE }]);
    const [event] = await db.query(`SELECT actor_id, actor_client_id, details FROM audit_events WHERE action = 'doc_section.created'`);
    expect(event).toEqual({ actor_id: carla.id, actor_client_id: null, details: { slug: 'orders-api', title: 'Orders API' } });

    const twice = await staff.post(agent, '/console/docs/new', '/console/docs/new', { slug: 'orders-api', title: 'Again', body: '' });
    expect(twice.status).toBe(409);
    expect(twice.text).toMatch(/id="slug-error">A section with the slug orders-api exists\. Choose another slug\./);
    const list = await agent.get('/console/docs').expect(200);
    expect(list.text).toContain('<a href="/console/docs/orders-api">Orders API</a>');
  });

  it('edits with a preview first, then saves through the REST use case', async () => {
    const agent = await staff.signIn(carla);
    await app.admin.get(DocService).create(tenantId, SYSTEM_ACTOR, { slug: 'billing', title: 'Billing', body: 'Old text' });
    const preview = await staff.post(agent, '/console/docs/billing', '/console/docs/billing', { title: 'Billing v2', body: '## New\n\nText', intent: 'preview' });
    expect(preview.status).toBe(200);
    expect(previewOf(preview.text)).toContain('<h2>New</h2>');
    expect((await sections()).find((s) => s.slug === 'billing')!.title).toBe('Billing');
    const blank = await staff.post(agent, '/console/docs/billing', '/console/docs/billing', { title: '  ', body: 'typed' });
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('>typed</textarea');
    const saved = await staff.post(agent, '/console/docs/billing', '/console/docs/billing', { title: 'Billing v2', body: '## New\n\nText' });
    expect(saved.status).toBe(303);
    expect((await agent.get('/console/docs/billing')).text).toContain('Section &quot;Billing v2&quot; saved.');
    expect((await sections()).find((s) => s.slug === 'billing')).toMatchObject({ title: 'Billing v2', body: '## New\n\nText' });
    const [event] = await db.query(`SELECT actor_id, details FROM audit_events WHERE action = 'doc_section.updated'`);
    expect(event).toEqual({ actor_id: carla.id, details: { slug: 'billing', changed: ['title', 'body'] } });
  });

  it('shows who can read a section: the users it is open to and pending invitations', async () => {
    const agent = await staff.signIn(carla);
    const docs = app.admin.get(DocService);
    await docs.create(tenantId, SYSTEM_ACTOR, { slug: 'shipping', title: 'Shipping', body: 'x' });
    const users = app.admin.get(UserService);
    const pat = await users.create(tenantId, SYSTEM_ACTOR, { username: 'pat', email: 'pat@partner.example', displayName: 'Pat Partner', password: 'none' });
    const quinn = await users.create(tenantId, SYSTEM_ACTOR, { username: 'quinn', email: 'quinn@partner.example', displayName: 'Quinn Reader', password: 'none' });
    await db.transaction((em) => docs.grant(em, tenantId, pat.id, ['shipping']));
    await app.admin.get(InvitationService).create(tenantId, SYSTEM_ACTOR, { userId: quinn.id, sections: ['shipping', 'billing'] });
    const page = await agent.get('/console/docs/shipping').expect(200);
    const readers = page.text.slice(page.text.indexOf('id="readers-heading"'));
    expect(readers).toContain('Pat Partner');
    expect(readers).toContain('pat@partner.example');
    expect(readers).toContain('Pending invitations that open it');
    expect(readers).toContain('Quinn Reader');
    expect((await agent.get('/console/docs/billing')).text).not.toContain('Pat Partner');
    expect((await agent.get('/console/docs/no-such-section')).status).toBe(404);
  });

  it('deletes after a confirmation that names the section and its readers', async () => {
    const agent = await staff.signIn(carla);
    const confirm = await agent.get('/console/docs/shipping/delete').expect(200);
    expect(confirm.text).toContain('The one person who can read it loses access at once.');
    const gone = await staff.post(agent, '/console/docs/shipping/delete', '/console/docs/shipping/delete', {});
    expect(gone.status).toBe(303);
    expect(gone.headers.location).toBe('/console/docs');
    expect((await sections()).map((s) => s.slug)).not.toContain('shipping');
    const [event] = await db.query(`SELECT actor_id FROM audit_events WHERE action = 'doc_section.deleted'`);
    expect(event).toEqual({ actor_id: carla.id });
  });

  it('refuses roles without Docs.Manage and posts without a CSRF token, changing nothing', async () => {
    const it = await staff.staff(tenantId, ['ITDepartment']);
    const agent = await staff.signIn(it);
    const home = await agent.get('/console').expect(200);
    expect(home.text).not.toContain('href="/console/docs"');
    expect((await agent.get('/console/docs')).status).toBe(403);
    const forced = await agent.post('/console/docs/new').set('Origin', origin).type('form').send(formBody({ _csrf: csrfOf(home.text), slug: 'sneaky', title: 'Sneaky', body: '' }));
    expect(forced.status).toBe(403);
    const forcedEdit = await agent.post('/console/docs/billing').set('Origin', origin).type('form').send(formBody({ _csrf: csrfOf(home.text), title: 'Owned', body: '' }));
    expect(forcedEdit.status).toBe(403);
    const carlaAgent = await staff.signIn(carla);
    const noToken = await carlaAgent.post('/console/docs/billing').set('Origin', origin).type('form').send({ title: 'No token', body: '' });
    expect(noToken.status).toBe(403);
    const all = await sections();
    expect(all.map((s) => s.slug)).not.toContain('sneaky');
    expect(all.find((s) => s.slug === 'billing')!.title).toBe('Billing v2');
  });

  it('REST: GET /invitations?section= lists the invitations that open a section', async () => {
    const fixtures = new AdminFixtures(app.admin, app.config);
    const tenant = await fixtures.tenant();
    const operator = await fixtures.operator(tenant, ['ContactPerson']);
    await app.admin.get(DocService).create(tenant.tenantId, SYSTEM_ACTOR, { slug: 'alpha', title: 'Alpha', body: '' });
    await app.admin.get(DocService).create(tenant.tenantId, SYSTEM_ACTOR, { slug: 'beta', title: 'Beta', body: '' });
    const invitations = app.admin.get(InvitationService);
    const one = await invitations.create(tenant.tenantId, SYSTEM_ACTOR, { userId: operator.user.id, sections: ['alpha'] });
    await invitations.create(tenant.tenantId, SYSTEM_ACTOR, { userId: operator.user.id, sections: ['beta'] });
    const listed = await request(app.admin.getHttpServer()).get('/admin/v1/invitations?section=alpha').set('authorization', `Bearer ${operator.token}`).expect(200);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toEqual([one.id]);
    await request(app.admin.getHttpServer()).get('/admin/v1/invitations?section=Not%20A%20Slug').set('authorization', `Bearer ${operator.token}`).expect(400);
  });
});
