import type request from 'supertest';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { DocService } from '@gatehouse/docs';
import { AccessRequestService } from '@gatehouse/requests';
import { type ConsoleApp, type ConsoleFixtures, type StaffMember, csrfOf, formBody, startConsoleApp } from './support/console.js';

/** Access requests in the console over HTTP: the REST API's use cases, permissions and audit events. */
describe('console: access requests', () => {
  let app: ConsoleApp;
  let db: DataSource;
  let staff: ConsoleFixtures;
  let tenantId: string;
  let origin: string;
  let carla: StaffMember; // ContactPerson: Requests.Decide
  let ian: StaffMember; // ITDepartment: Requests.Read only
  let carlaAgent: request.Agent;

  let serial = 0;
  const fileFor = (name: string, parts: { account?: boolean; api?: boolean } = { account: true }) => {
    serial += 1;
    return app.admin.get(AccessRequestService).file(tenantId, SYSTEM_ACTOR, {
      requesterName: name,
      requesterEmail: `req${serial}@partner.example`,
      organisation: 'Partner Ltd',
      account: parts.account ? { documentation: 'Orders API guide', reason: 'I build the integration.' } : null,
      api: parts.api ? { systemName: 'Orders sync', technicalContactEmail: 'ops@partner.example', purpose: 'Reads orders.' } : null,
    });
  };
  const stateOf = async (id: string) => ((await db.query(`SELECT status FROM access_requests WHERE id = $1`, [id]))[0] as { status: string }).status;

  beforeAll(async () => {
    app = await startConsoleApp();
    ({ db, staff, tenantId, origin } = app);
    carla = await staff.staff(tenantId, ['ContactPerson'], { username: 'carla' });
    ian = await staff.staff(tenantId, ['ITDepartment'], { username: 'ian' });
    carlaAgent = await staff.signIn(carla);
    await app.admin.get(DocService).create(tenantId, SYSTEM_ACTOR, { slug: 'orders-api', title: 'Orders API', body: '# Orders' });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
  });

  it('the queue shows waiting requests by default, oldest first, with the count in the sidebar; states in the URL', async () => {
    const first = await fileFor('Ann Early');
    await fileFor('Bob Later', { api: true });
    const queue = await carlaAgent.get('/console/requests').expect(200);
    expect(queue.text.indexOf('Ann Early')).toBeLessThan(queue.text.indexOf('Bob Later'));
    expect(queue.text).toContain('API access (Orders sync)');
    expect(queue.text).toMatch(/Access requests<\/span><span class="count"\s*>\d+<span class="visually-hidden"> waiting for a decision/);
    await db.query(`UPDATE access_requests SET status = 'rejected', decided_at = now(), decision_note = 'No.' WHERE id = $1`, [first.id]);
    const rejected = await carlaAgent.get('/console/requests?status=rejected').expect(200);
    expect(rejected.text).toContain('Ann Early');
    expect(rejected.text).not.toContain('Bob Later');
    expect((await carlaAgent.get('/console/requests?status=bogus')).status).toBe(400);
    const sidebar = /<nav class="sidebar[\s\S]*?<\/nav>/.exec(queue.text)![0];
    expect(sidebar.indexOf('Overview')).toBeLessThan(sidebar.indexOf('Access requests'));
    expect(sidebar.indexOf('Access requests')).toBeLessThan(sidebar.indexOf('Users'));
  });

  it('pages 50 at a time: Newer, then Older back to the first page', async () => {
    for (let i = 0; i < 52; i += 1) await fileFor(`Queue Person ${i}`);
    const all = await carlaAgent.get('/console/requests?status=submitted').expect(200);
    const next = /href="([^"]+)" rel="next"/.exec(all.text)![1]!.replace(/&amp;/g, '&');
    expect(/>Newer →</.test(all.text)).toBe(true);
    const second = await carlaAgent.get(next).expect(200);
    expect(second.text).toContain('Queue Person 51');
    const prev = /href="([^"]+)" rel="prev"/.exec(second.text)![1]!.replace(/&amp;/g, '&');
    expect(prev).toContain('status=submitted');
    const back = await carlaAgent.get(prev).expect(200);
    expect(back.text).toContain('Bob Later');
    expect(back.text).not.toContain('rel="prev"');
  });

  it('approves with sections and expiry: user, invitation and client created, audited as the person, the trail links them', async () => {
    const asked = await fileFor('Cleo Both', { account: true, api: true });
    const detail = await carlaAgent.get(`/console/requests/${asked.id}`).expect(200);
    expect(detail.text).toContain('I build the integration.');
    expect(detail.text).toContain('Invite the new user to these sections');
    const bad = await staff.post(carlaAgent, `/console/requests/${asked.id}`, `/console/requests/${asked.id}/approve`, { sections: ['orders-api'], expiresInHours: '0', note: 'Welcome' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="expiresInHours"[^>]*value="0"[^>]*aria-invalid="true"/);
    expect(bad.text).toMatch(/<textarea\s+id="approve-note"[^>]*>Welcome<\/textarea>/);
    expect(await stateOf(asked.id)).toBe('submitted');
    const gone = await staff.post(carlaAgent, `/console/requests/${asked.id}`, `/console/requests/${asked.id}/approve`, { sections: ['no-such-section'], expiresInHours: '72' });
    expect(gone.status).toBe(400);
    expect(gone.text).toMatch(/id="sections-error">[^<]*Nothing was created/);
    expect(await stateOf(asked.id)).toBe('submitted');
    expect(await db.query(`SELECT id FROM users WHERE email = $1`, [asked.requesterEmail])).toEqual([]);
    const ok = await staff.post(carlaAgent, `/console/requests/${asked.id}`, `/console/requests/${asked.id}/approve`, { sections: ['orders-api'], expiresInHours: '72', note: 'Welcome' });
    expect(ok.status).toBe(303);
    const [row] = await db.query(`SELECT status, user_id, invitation_id, api_client_id, decided_by_user_id FROM access_requests WHERE id = $1`, [asked.id]);
    expect(row.status).toBe('approved');
    expect(row.decided_by_user_id).toBe(carla.id);
    const [event] = await db.query(`SELECT actor_id, actor_client_id FROM audit_events WHERE action = 'access_request.approved' AND target_id = $1`, [asked.id]);
    expect(event).toEqual({ actor_id: carla.id, actor_client_id: null });
    const [inv] = await db.query(`SELECT section_slugs, expires_at FROM invitations WHERE id = $1`, [row.invitation_id]);
    expect(inv.section_slugs).toEqual(['orders-api']);
    expect(new Date(inv.expires_at).getTime() - Date.now()).toBeLessThan(73 * 3600_000);
    const after = await carlaAgent.get(ok.headers.location!).expect(200);
    expect(after.text).toContain('Approved the request of Cleo Both');
    expect(after.text).toContain(`href="/console/users/${row.user_id}"`);
    expect(after.text).toMatch(/href="\/console\/clients\/[0-9a-f-]{36}"/);
    expect(after.text).not.toContain('id="decide"'); // decided: no form any more
    const again = await staff.post(carlaAgent, `/console/requests/${asked.id}`, `/console/requests/${asked.id}/approve`, {});
    expect(again.status).toBe(303); // decided already: back on the request, saying by whom and when
    expect(again.headers.location).toBe(`/console/requests/${asked.id}`);
    expect((await carlaAgent.get(again.headers.location!)).text).toMatch(/Already approved by Carla Example .* Nothing was done again/);
  });

  it('rejects with a note shown to the requester; an empty note keeps the form with the message beside it', async () => {
    const asked = await fileFor('Dora No');
    const empty = await staff.post(carlaAgent, `/console/requests/${asked.id}`, `/console/requests/${asked.id}/reject`, { note: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toMatch(/id="reject-note"[^>]*aria-invalid="true"/);
    expect(await stateOf(asked.id)).toBe('submitted');
    const done = await staff.post(carlaAgent, `/console/requests/${asked.id}`, `/console/requests/${asked.id}/reject`, { note: 'Please ask through your account manager.' });
    expect(done.status).toBe(303);
    expect(await stateOf(asked.id)).toBe('rejected');
    const [event] = await db.query(`SELECT actor_id FROM audit_events WHERE action = 'access_request.rejected' AND target_id = $1`, [asked.id]);
    expect(event.actor_id).toBe(carla.id);
    const [row] = await db.query(`SELECT decision_note FROM access_requests WHERE id = $1`, [asked.id]);
    expect(row.decision_note).toBe('Please ask through your account manager.');
    expect(await db.query(`SELECT template FROM emails WHERE to_address = $1`, [asked.requesterEmail])).toHaveLength(1); // the requester is told
  });

  it('staff file a request for someone: errors beside the fields, then submitted and audited as the person', async () => {
    const bad = await staff.post(carlaAgent, '/console/requests/new', '/console/requests/new', { requesterName: 'Eli Phone', requesterEmail: 'not-mail', organisation: 'Phone Co' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/id="requesterEmail"[^>]*value="not-mail"[^>]*aria-invalid="true"/);
    expect(bad.text).toContain('Choose a personal account, API access for a system, or both.');
    expect(bad.text).toMatch(/id="requesterName"[^>]*value="Eli Phone"/);
    const ok = await staff.post(carlaAgent, '/console/requests/new', '/console/requests/new', {
      requesterName: 'Eli Phone', requesterEmail: 'eli@phone.example', organisation: 'Phone Co', wantsApi: 'yes', systemName: 'Billing bot', technicalContactEmail: 'ops@phone.example', purpose: 'Posts invoices.',
    });
    expect(ok.status).toBe(303);
    const [row] = await db.query(`SELECT id, status, origin, filed_by_user_id FROM access_requests WHERE requester_email = 'eli@phone.example'`);
    expect(row).toMatchObject({ status: 'submitted', origin: 'staff', filed_by_user_id: carla.id });
    const [event] = await db.query(`SELECT actor_id FROM audit_events WHERE action = 'access_request.created' AND target_id = $1`, [row.id]);
    expect(event.actor_id).toBe(carla.id);
    expect((await carlaAgent.get(ok.headers.location!)).text).toMatch(/by <a href="\/console\/users\/[^"]+">Carla Example<\/a>, for the requester/);
  });

  it('Requests.Read without Requests.Decide: reads, gets 403 on deciding and filing, nothing changes; CSRF checked', async () => {
    const asked = await fileFor('Finn Wait');
    const ianAgent = await staff.signIn(ian);
    const page = await ianAgent.get(`/console/requests/${asked.id}`).expect(200);
    expect(page.text).not.toContain('id="decide"');
    expect((await ianAgent.get('/console/requests/new')).status).toBe(403);
    const forced = await ianAgent.post(`/console/requests/${asked.id}/approve`).set('Origin', origin).type('form').send(formBody({ _csrf: csrfOf(page.text) }));
    expect(forced.status).toBe(403);
    expect(forced.text).toContain('Nothing was changed');
    const filed = await ianAgent.post('/console/requests/new').set('Origin', origin).type('form')
      .send(formBody({ _csrf: csrfOf(page.text), requesterName: 'X', requesterEmail: 'x@x.example', organisation: 'X', wantsApi: 'yes', systemName: 'X', technicalContactEmail: 'x@x.example', purpose: 'X' }));
    expect(filed.status).toBe(403);
    const noCsrf = await carlaAgent.post(`/console/requests/${asked.id}/reject`).set('Origin', origin).type('form').send(formBody({ note: 'No.' }));
    expect(noCsrf.status).toBe(403);
    expect(await stateOf(asked.id)).toBe('submitted');
    expect(await db.query(`SELECT id FROM access_requests WHERE requester_email = 'x@x.example'`)).toEqual([]);
    const auditor = await staff.staff(tenantId, ['Auditor']);
    expect((await (await staff.signIn(auditor)).get('/console/requests')).status).toBe(200);
  });
});
