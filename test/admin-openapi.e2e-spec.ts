import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminApi, type Method } from './support/admin-calls.js';
import type { OperatorFixture } from './support/admin-fixtures.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The admin API's OpenAPI document: published, lint-clean, and every operation it lists answered without a 5xx. */
describe('admin API: its OpenAPI document', () => {
  const api = new AdminApi();
  const calls = api.calls;
  let app: INestApplication;
  let adminA: OperatorFixture;
  let adminB: OperatorFixture;

  beforeAll(async () => {
    const { fixtures } = await api.start();
    app = api.app;
    adminA = await fixtures.operator(await fixtures.tenant(), ['Administrator']);
    adminB = await fixtures.operator(await fixtures.tenant(), ['Administrator']);
  });

  afterAll(() => api.stop());

  it('publishes the OpenAPI document with bearer auth', async () => {
    const doc = await request(app.getHttpServer()).get('/admin/openapi.json').expect(200);
    expect(doc.body.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.body.paths)).toContain('/admin/v1/clients/{clientId}/secrets');
    expect(doc.body.components.schemas.IssuedSecretResponse.required).toContain('secretText');
    expect(JSON.stringify(doc.body.components.schemas.SecretResponse)).not.toContain('secretText');
    await request(app.getHttpServer()).get('/admin/docs/').expect(200);
  });

  it('serves an OpenAPI document that Redocly lints clean with the repository’s rules', async () => {
    const doc = await request(app.getHttpServer()).get('/admin/openapi.json').expect(200);
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-openapi-'));
    try {
      writeFileSync(join(dir, 'openapi.json'), doc.text);
      const root = join(import.meta.dirname, '..');
      const lint = spawnSync(join(root, 'node_modules/.bin/redocly'), ['lint', '--config', join(root, 'redocly.yaml'), join(dir, 'openapi.json')], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      });
      expect(lint.status, `${lint.stdout}\n${lint.stderr}`.slice(-3000)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const operations = Object.values(doc.body.paths as Record<string, Record<string, Json>>).flatMap((item) => Object.values(item));
    expect(operations.length).toBeGreaterThanOrEqual(30);
    for (const operation of operations) expect(operation.summary, operation.operationId).toEqual(expect.any(String));
  }, 60_000);

  it('survives a small fuzz over every documented operation: no 5xx, always problem+json on errors', async () => {
    const doc = await request(app.getHttpServer()).get('/admin/openapi.json').expect(200);
    const payloads: unknown[] = [undefined, [], { zzz: 1 }, { displayName: { $ne: 1 }, scopes: 'x', value: null }, { displayName: 'ok', identifier: 'api://\r\nx' }];
    let sent = 0;
    for (const [template, operations] of Object.entries(doc.body.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(operations) as Method[]) {
        for (const id of ['00000000-0000-4000-8000-000000000000', 'x%00y', adminB.user.id]) {
          const path = template.replace('/admin/v1', '').replace(/\{[^}]+\}/g, id);
          for (const body of method === 'get' || method === 'delete' ? [undefined] : payloads) {
            const response = await calls.call(method, path, adminA.token, body);
            sent++;
            expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
            if (response.status >= 400) expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(100);
  });

  it('no answer may be cached: every response of the admin API says no-store (secrets, passwords, problems alike)', async () => {
    const direct = [
      await request(app.getHttpServer()).get('/admin/v1/clients'),
      await request(app.getHttpServer()).post('/admin/v1/clients').set('content-type', 'application/json').send('{'),
      await request(app.getHttpServer()).get('/admin/openapi.json'),
    ];
    for (const response of direct) calls.keep('direct', response);
    expect(calls.cacheControls.size).toBeGreaterThan(100);
    calls.expectNoneCacheable();
  });

  it('never returned a hash', () => {
    calls.expectNoHash();
  });
});
