import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@gatehouse/accounts';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { DESIGN_ROLES, MATRIX_ROLES, MATRIX_WEBHOOK_URL, MatrixFixtures } from './support/matrix-fixtures.js';
import { REST_MATRIX } from './support/rest-matrix.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * The role × action matrix of the admin API (issue 37): for each role of DESIGN §4 (and a person
 * whose roles were all taken away), every operation of the OpenAPI document either works as the
 * role table allows — its answer, and an audit event for a write — or is refused with 403 and
 * nothing changed (not one audit event). The operations come from the served document: a new one
 * without a line in REST_MATRIX fails here.
 */
describe('role matrix: every admin API operation × every role', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let f: MatrixFixtures;
  const tokens = new Map<Role | 'none', string>();

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, { webhookPrivateTargets: [MATRIX_WEBHOOK_URL] });
    app = await createAdminApp({ config, logDestination: new LogCapture() });
    const fixtures = new AdminFixtures(app, config);
    const tenant = await fixtures.tenant();
    f = new MatrixFixtures(app, tenant.tenantId);
    for (const role of MATRIX_ROLES) {
      // "none": a staff member whose roles were all taken away, still holding an unexpired token.
      const operator = await fixtures.operator(tenant, role === 'none' ? ['Auditor'] : [role], `matrix-${role.toLowerCase()}`);
      if (role === 'none') await f.db.query(`UPDATE users SET roles = '{}' WHERE id = $1`, [operator.user.id]);
      tokens.set(role, operator.token);
    }
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('the table names every operation of the OpenAPI document, with the permission the document declares', async () => {
    const document = (await request(app.getHttpServer()).get('/admin/openapi.json')).body as { paths: Record<string, Record<string, { description?: string }>> };
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.map((o) => o.key).sort()).toEqual(Object.keys(REST_MATRIX).sort());
    for (const { key, op } of operations) expect(op.description, key).toContain(`Requires the ${REST_MATRIX[key]!.permission} permission.`);
  });

  for (const role of MATRIX_ROLES) {
    it(`${role}: works where DESIGN §4 allows it, else 403 and nothing changed`, async () => {
      const held = new Set(DESIGN_ROLES[role]);
      const wrong: string[] = [];
      for (const [key, operation] of Object.entries(REST_MATRIX)) {
        const method = key.split(' ')[0]!.toLowerCase() as Method;
        for (const [n, testCase] of operation.cases.entries()) {
          const call = await testCase.prepare(f);
          const before = await f.auditCount();
          const req = request(app.getHttpServer())[method](`/admin/v1${call.path}`).set('authorization', `Bearer ${tokens.get(role)}`);
          const res = await (call.body === undefined ? req : req.send(call.body));
          const written = (await f.auditCount()) - before;
          const allowed = held.has(operation.permission) && (!testCase.needs || held.has(testCase.needs));
          const ok = allowed ? res.status === testCase.status && (method === 'get' || written > 0) : res.status === 403 && written === 0;
          if (!ok) wrong.push(`${key} #${n}: ${allowed ? 'allowed' : 'refused'} but answered ${res.status} (${written} audit events) ${JSON.stringify(res.body).slice(0, 160)}`);
        }
      }
      expect(wrong).toEqual([]);
    }, 180_000);
  }
});
