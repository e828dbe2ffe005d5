import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { expect } from 'vitest';
import type { AppConfig } from '@gatehouse/config';
import { createAdminApp } from '../../apps/admin/src/admin.app.js';
import { AdminFixtures } from './admin-fixtures.js';
import { LogCapture } from './log-capture.js';
import { testConfig } from './test-config.js';
import { type TestDatabase, createTestDatabase } from './test-database.js';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Calls of the admin API (through supertest) that keep every answer's body and Cache-Control, so a
 * file can check at its end what every answer must hold: `no-store`, and never a hash.
 */
export class AdminCalls {
  readonly bodies: string[] = [];
  readonly cacheControls = new Map<string, string | undefined>();

  constructor(private readonly app: () => INestApplication) {}

  async call(method: Method, path: string, token: string | undefined, body?: unknown): Promise<request.Response> {
    let req = request(this.app().getHttpServer())[method](`/admin/v1${path}`);
    if (token !== undefined) req = req.set('authorization', `Bearer ${token}`);
    if (body !== undefined) req = req.send(body as object);
    return this.keep(`${method} ${path}`, await req);
  }

  /** Keeps an answer got some other way (a raw body, no `/admin/v1` prefix). */
  keep(label: string, response: request.Response): request.Response {
    this.bodies.push(response.text ?? '');
    this.cacheControls.set(`${label} → ${response.status}`, response.headers['cache-control']);
    return response;
  }

  /** Every answer kept said `no-store` (secrets, passwords, problems alike). */
  expectNoneCacheable(): void {
    expect(this.cacheControls.size).toBeGreaterThan(0);
    expect([...this.cacheControls].filter(([, value]) => value !== 'no-store')).toEqual([]);
  }

  /** No answer kept showed a hash column. */
  expectNoHash(): void {
    expect(this.bodies.length).toBeGreaterThan(0);
    for (const body of this.bodies) expect(body).not.toMatch(/"(secret_hash|secretHash|passwordHash|password_hash)"\s*:/);
  }
}

/** A problem+json answer with this status (and code). */
export function expectProblem(response: request.Response, status: number, code?: string): void {
  expect(response.status, response.text?.slice(0, 300)).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  if (code) expect(response.body.code).toBe(code);
}

/** The admin app on this file's clone of the template database, its fixtures and its kept calls. */
export class AdminApi {
  readonly logs = new LogCapture();
  readonly calls = new AdminCalls(() => this.app);
  app!: INestApplication;
  fixtures!: AdminFixtures;
  private database: TestDatabase | undefined;

  async start(overrides: Partial<AppConfig> = {}): Promise<this> {
    this.database = await createTestDatabase();
    const config = testConfig(this.database.url, overrides);
    this.app = await createAdminApp({ config, logDestination: this.logs });
    this.fixtures = new AdminFixtures(this.app, config);
    return this;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    await this.database?.drop();
  }
}
