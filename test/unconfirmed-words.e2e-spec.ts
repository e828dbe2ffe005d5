import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';

const LURE = 'URGENT your account is locked, log in at https://evil.example/now';

/**
 * SECURITY 60 (second half) and the red-team pass's two Info findings: a mail sent to an address
 * nobody has confirmed carries none of the requester's free text as our words (the confirmation
 * page quotes it as theirs), and the access log masks link tokens whatever the casing of the path
 * (routing ignores case: `GET /HANDOVER/<token>` is the handover page).
 */
describe("requesters' words and link tokens", () => {
  const apps = new AccessApps();
  let contact: OperatorFixture;

  beforeAll(async () => {
    await apps.start({ trustProxy: ['loopback'] });
    await apps.dataSource.query(`UPDATE tenants SET display_name = 'Acme Services' WHERE id = $1`, [apps.tenant.tenantId]);
    contact = await apps.fixtures.operator(apps.tenant, ['ContactPerson']);
  }, 60_000);

  afterAll(() => apps.stop());

  it("the confirmation mail names only the tenant, the kind of access and the link; the page quotes the requester's words", async () => {
    const sent = await (await apps.visit('/request-access', '192.0.2.60')).post({
      requesterName: LURE,
      requesterEmail: 'victim@partner.example',
      organisation: 'Call +1 555 0100 to keep your access',
      wantsApi: 'yes',
      systemName: `${LURE} (system)`,
      technicalContactEmail: 'ops@partner.example',
      purpose: 'Reply with your password',
    });
    expect(sent.status).toBe(303);
    const mail = await apps.mailTo('victim@partner.example', /confirm your access request/);
    expect(mail.subject).toBe('Acme Services: confirm your access request');
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toMatch(/URGENT|evil\.example|555 0100|password/i);
    }
    expect(mail.text).toContain('Someone asked Acme Services for API access for a system');
    const link = apps.linkIn(mail, 'request-access/confirm');
    const page = await request(apps.identity.getHttpServer()).get(link.replace(apps.publicUrl, ''));
    expect(page.status).toBe(200);
    const quoted = /<figure class="quoted">([\s\S]*?)<\/figure>/.exec(page.text)?.[1] ?? '';
    expect(quoted).toContain('URGENT your account is locked');
    expect(quoted).toContain('as typed by whoever sent the request');
    const outside = page.text.replace(/<figure class="quoted">[\s\S]*?<\/figure>/, '');
    expect(outside).not.toMatch(/URGENT|evil\.example/);
  });

  it('the access log masks a link token in any casing of every link path', async () => {
    const clientId = (await apps.call('post', '/clients', contact.token, { displayName: 'Log check', contactEmail: 'ops@log.example' })).body
      .clientId;
    const it_ = await apps.fixtures.operator(apps.tenant, ['ITDepartment']);
    const api = await apps.call('post', '/apis', it_.token, { identifier: 'api://logs', displayName: 'Logs' });
    await apps.call('post', `/apis/${api.body.id}/scopes`, it_.token, { value: 'Logs.Read' });
    await apps.call('put', `/clients/${clientId}/scopes`, it_.token, { scopes: ['api://logs/Logs.Read'] });
    await apps.call('post', `/clients/${clientId}/handovers`, contact.token, {});
    const token = apps.linkIn(await apps.mailTo('ops@log.example', /credentials/), 'handover').split('/').pop()!;
    const web = request(apps.identity.getHttpServer());
    // Routing ignores case: the upper-case path is the handover page itself.
    expect((await web.get(`/HANDOVER/${token}`)).status).toBe(200);
    for (const path of ['/Handover', '/INVITATIONS', '/Activate', '/request-access/CONFIRM', '/Password-Reset', '/h%61ndover']) {
      await web.get(`${path}/${token}`);
    }
    await request(apps.admin.getHttpServer()).get(`/Console/ACTIVATE/${token}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(apps.logs.text).toContain('/HANDOVER/[redacted]');
    expect(apps.logs.text).not.toContain(token);
  });
});
