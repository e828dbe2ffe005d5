import { connect } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppLifecycle, runApps } from '@gatehouse/http';
import { createIdentityApp } from '../apps/identity/src/identity.app.js';
import { identityRole } from '../apps/identity/src/identity-role.js';
import { freePort } from './support/http-apps.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { TokenFixtures } from './support/token-fixtures.js';

const until = async (condition: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};

/** A token request written in two pieces: the head now, the body when `finish` is called. */
function slowTokenRequest(port: number, path: string, body: string) {
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (answer += chunk));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`;
  const opened = new Promise<void>((resolve) => socket.once('connect', () => socket.write(head, () => resolve())));
  return { opened, finish: () => socket.write(body), closed };
}

describe('operations: health on every app, /metrics only on the management listener, graceful stop', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let fx: TokenFixtures;
  let form: string;
  let tenantSlug: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createIdentityApp({ config: testConfig(database.url), logDestination: new LogCapture() });
    fx = new TokenFixtures(app, testConfig(database.url).secretPepper);
    const tenant = await fx.tenant();
    tenantSlug = tenant.slug;
    const orders = await fx.api(tenant.id, { identifier: 'api://orders', scopes: ['Orders.Read'] });
    const client = await fx.readyClient(tenant.id, orders, ['Orders.Read']);
    form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.secret,
      scope: 'api://orders/.default',
    }).toString();
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('answers liveness without touching the database, and readiness while Postgres answers', async () => {
    const live = await request(app.getHttpServer()).get('/health/live').expect(200);
    expect(live.body).toEqual({ status: 'ok' });
    expect(live.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await request(app.getHttpServer()).get('/health/ready').expect(200)).body.status).toBe('ok');
    app.get(AppLifecycle).draining = true;
    expect((await request(app.getHttpServer()).get('/health/ready')).status).toBe(503);
    app.get(AppLifecycle).draining = false;
  });

  it('never serves /metrics on the public port', async () => {
    expect((await request(app.getHttpServer()).get('/metrics')).status).toBe(404);
  });

  it('serves /metrics with domain figures and health on MANAGEMENT_PORT; on SIGTERM drains a token request in flight', async () => {
    const [port, managementPort] = [await freePort(), await freePort()];
    const config = testConfig(database.url, { port, managementPort, shutdownTimeoutSeconds: 10 });
    const lines: string[] = [];
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let started!: () => void;
    const isStarted = new Promise<void>((resolve) => (started = resolve));
    const exit = runApps(config, [identityRole(config)], {
      log: (l) => lines.push(l),
      afterStart: started,
      stopSignal,
    });
    await isStarted;
    const base = `http://127.0.0.1:${port}`;
    const management = `http://127.0.0.1:${managementPort}`;
    const token = (body: string) =>
      fetch(`${base}/${tenantSlug}/oauth2/v2.0/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
    expect((await token(form)).status).toBe(200);
    expect((await token(form.replace('client_secret=', 'client_secret=x'))).status).toBe(401);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    const metrics = await (await fetch(`${management}/metrics`)).text();
    expect(metrics).toMatch(/^gatehouse_tokens_issued_total 1$/m);
    expect(metrics).toMatch(/^gatehouse_tokens_refused_total\{reason="invalid_secret"\} 1$/m);
    for (const name of [
      'gatehouse_outbox_depth',
      'gatehouse_mails_sent_total',
      'gatehouse_logins_total',
      'gatehouse_cache_hit_ratio',
      'gatehouse_notify_reconnects_total',
      'process_cpu_user_seconds_total',
    ]) {
      expect(metrics).toContain(name);
    }
    expect(await (await fetch(`${management}/health/ready`)).json()).toEqual({
      status: 'ok',
      apps: { identity: 'up' },
    });

    const slow = slowTokenRequest(port, `/${tenantSlug}/oauth2/v2.0/token`, form);
    await slow.opened;
    await new Promise((r) => setTimeout(r, 200)); // the head reaches the server before the stop
    stop();
    await until(async () => (await fetch(`${management}/health/ready`).catch(() => undefined))?.status === 503);
    await until(() =>
      fetch(`${base}/health/live`).then(
        () => false,
        () => true,
      ),
    );
    slow.finish();
    const answer = await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(await exit).toBe(0);
    expect(lines.join('\n')).toContain('stopping: draining');
  });
});
