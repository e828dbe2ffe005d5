import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleApp, type StaffMember, csrfOf, startConsoleApp } from './support/console.js';

/** What the console's code step says after wrong codes: until when sign-in waits, and what to do next. */
describe('console: wrong codes', () => {
  let app: ConsoleApp;
  let sam: StaffMember;

  beforeAll(async () => {
    app = await startConsoleApp();
    sam = await app.staff.staff(app.tenantId, ['Auditor'], { username: 'sam' });
  }, 60_000);

  afterAll(() => app?.close());

  /** A wrong code typed after the password step; the page's text. */
  async function wrongCode(): Promise<string> {
    const agent = request.agent(app.admin.getHttpServer());
    await app.db.query(`UPDATE users SET second_factor_locked_until = NULL WHERE id = $1`, [sam.id]); // skip the pause, not the count
    expect((await app.staff.passwordStep(agent, sam)).status).toBe(303);
    const form = await agent.get('/console/login/code');
    const answer = await agent.post('/console/login/code').set('Origin', app.origin).type('form').send({ _csrf: csrfOf(form.text), code: '000000', returnTo: '/console' });
    expect(answer.status).toBe(401);
    return answer.text.replace(/\s+/g, ' ');
  }

  it('after the third wrong code asks to wait a moment; after the fifth names the end of the lock and the ways on', async () => {
    expect(await wrongCode()).toContain('That code did not work. Enter the code your app shows now');
    await wrongCode();
    expect(await wrongCode()).toContain('sign-in pauses for a few seconds. Wait a moment, then enter the code your app shows now.');
    await wrongCode();
    const locked = await wrongCode();
    expect(locked).toMatch(/Too many wrong codes: sign-in is locked for 1[45] minutes \(until \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\./);
    expect(locked).toContain('Use one of your recovery codes instead, or ask an Administrator to reset your second factor.');
  });
});
