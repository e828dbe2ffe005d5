import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

describe('operations endpoints', () => {
  let database: TestDatabase;
  let app: INestApplication;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createIdentityApp({ config: testConfig(database.url), logDestination: new LogCapture() });
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('answers liveness without touching the database', async () => {
    const response = await request(app.getHttpServer()).get('/health/live').expect(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports ready when Postgres answers', async () => {
    const response = await request(app.getHttpServer()).get('/health/ready').expect(200);
    expect(response.body.status).toBe('ok');
  });

  it('exposes Prometheus metrics', async () => {
    await request(app.getHttpServer()).get('/health/live');
    const response = await request(app.getHttpServer()).get('/metrics').expect(200);
    expect(response.text).toContain('process_cpu_user_seconds_total');
    expect(response.text).toContain('http_request_duration_seconds');
  });
});
