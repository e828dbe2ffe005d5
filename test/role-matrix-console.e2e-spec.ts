import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import type request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@gatehouse/accounts';
import { CONSOLE_PAGES } from '../apps/admin/src/console/console.module.js';
import { declaredConsolePage } from '../apps/admin/src/console/frame/console.guard.js';
import { CONSOLE_MATRIX } from './support/console-matrix.js';
import { type ConsoleApp, type StaffMember, startConsoleApp } from './support/console.js';
import { DESIGN_ROLES, MATRIX_ROLES, MATRIX_WEBHOOK_URL, MatrixFixtures } from './support/matrix-fixtures.js';
import { ageSecondFactor, isStepUpPrompt } from './support/step-up.js';

/** The sign-in steps: POSTs before a session that passed both factors exists (no role to check yet). */
const SIGN_IN_POSTS = ['login', 'login/code', 'login/passkey/options', 'login/passkey', 'logout', 'enroll', 'activate/:token'];

/** Every POST route of the console's controllers, as `path under console/` with what its handler declares. */
function consolePosts() {
  return CONSOLE_PAGES.flatMap((controller) => {
    const base = ([Reflect.getMetadata(PATH_METADATA, controller)].flat()[0] as string).replace(/^console\/?/, '');
    return Object.getOwnPropertyNames(controller.prototype).flatMap((name) => {
      const handler = (controller.prototype as unknown as Record<string, object>)[name]!;
      if (name === 'constructor' || Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST) return [];
      const path = [base, Reflect.getMetadata(PATH_METADATA, handler) as string].filter((part) => part && part !== '/').join('/');
      return [{ path, declared: declaredConsolePage(handler) }];
    });
  });
}

/**
 * The role × action matrix of the console (issue 37): for each role (and a person whose roles were
 * taken away mid-session), every console form POST either works as DESIGN §4 allows — asking
 * first for a fresh second factor exactly where SECURITY 45/57 say, with nothing done until then
 * — or answers 403 with nothing changed. The routes come from the console's controllers: a new
 * form without a line in CONSOLE_MATRIX fails here.
 */
describe('role matrix: every console form × every role', () => {
  let app: ConsoleApp;
  let f: MatrixFixtures;
  const people = new Map<Role | 'none', { member: StaffMember; agent: request.Agent }>();

  beforeAll(async () => {
    app = await startConsoleApp({ config: { webhookPrivateTargets: [MATRIX_WEBHOOK_URL] } });
    f = new MatrixFixtures(app.admin, app.tenantId);
    for (const role of MATRIX_ROLES) {
      const member = await app.staff.staff(app.tenantId, role === 'none' ? ['Auditor'] : [role], { username: `matrix-${role.toLowerCase()}` });
      people.set(role, { member, agent: await app.staff.signIn(member) });
      if (role === 'none') await app.db.query(`UPDATE users SET roles = '{}' WHERE id = $1`, [member.id]);
    }
  }, 60_000);

  afterAll(() => app?.close());

  it('the table names every guarded console POST with the permission and step-up its handler declares; the rest are the sign-in steps', () => {
    const posts = consolePosts();
    expect(posts.filter((p) => !p.declared).map((p) => p.path).sort()).toEqual([...SIGN_IN_POSTS].sort());
    const guarded = posts.filter((p) => p.declared);
    expect(guarded.map((p) => p.path).sort()).toEqual(Object.keys(CONSOLE_MATRIX).sort());
    for (const { path, declared } of guarded) {
      const { permission, stepUp } = CONSOLE_MATRIX[path]!;
      expect(declared, path).toEqual({ permission, stepUp });
    }
  });

  for (const role of MATRIX_ROLES) {
    it(`${role}: each form works where DESIGN §4 allows it (after a step-up where SECURITY 57 asks), else 403 and nothing changed`, async () => {
      const held = new Set(DESIGN_ROLES[role]);
      const { member, agent } = people.get(role)!;
      const post = async (call: { path: string; fields?: Record<string, string | string[]> }) => app.staff.post(agent, '/console/account', `/console/${call.path}`, call.fields ?? {});
      const wrong: string[] = [];
      for (const [key, entry] of Object.entries(CONSOLE_MATRIX)) {
        const call = await entry.prepare(f, member);
        await ageSecondFactor(app.db, member.id); // six minutes old: only the step-up forms may ask again
        const before = await f.auditCount();
        let answer = await post(call);
        const allowed = role !== 'none' && (entry.permission === null || held.has(entry.permission)) && (!entry.needs || held.has(entry.needs));
        if (!allowed) {
          if (answer.status !== 403 || (await f.auditCount()) !== before) wrong.push(`${key}: refused but answered ${answer.status}`);
          continue;
        }
        if (isStepUpPrompt(answer) !== entry.stepUp) wrong.push(`${key}: step-up ${entry.stepUp ? 'missing' : 'asked'} (${answer.status})`);
        if (entry.stepUp) {
          if ((await f.auditCount()) !== before) wrong.push(`${key}: something was done before the step-up`);
          await app.db.query(`UPDATE sessions SET second_factor_at = now() WHERE user_id = $1 AND kind = 'console'`, [member.id]);
          answer = await post(call);
        }
        const written = (await f.auditCount()) - before;
        if (answer.status !== entry.status || (entry.audited !== false && written === 0)) wrong.push(`${key}: allowed but answered ${answer.status} (${written} audit events)`);
      }
      expect(wrong).toEqual([]);
    }, 180_000);
  }
});
