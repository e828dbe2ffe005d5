import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { simpleParser } from 'mailparser';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxDeliveryService } from '@gatehouse/mail';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures, type OperatorFixture } from './support/admin-fixtures.js';
import { LogCapture } from './support/log-capture.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

describe('mail without SMTP_URL: .eml files under DATA_DIR/mail', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let contact: OperatorFixture;
  let dataDir: string;
  const logs = new LogCapture();

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, { logLevel: 'info', publicUrl: 'https://id.example.test' });
    dataDir = config.dataDir;
    app = await createAdminApp({ config, logDestination: logs });
    const fixtures = new AdminFixtures(app, config);
    contact = await fixtures.operator(await fixtures.tenant(), ['ContactPerson']);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('writes the mail as a file, logs its path, and (outside development) never the link', async () => {
    const created = await request(app.getHttpServer())
      .post('/admin/v1/users')
      .set('authorization', `Bearer ${contact.token}`)
      .set('host', 'evil.example.com')
      .set('x-forwarded-host', 'evil.example.com')
      .send({ username: 'fay', email: 'fay@example.com', displayName: 'Fay', password: 'activation-link' });
    expect(created.status).toBe(201);
    expect(await app.get(OutboxDeliveryService).deliverDue(10)).toMatchObject({ sent: 1 });
    const files = readdirSync(join(dataDir, 'mail'));
    expect(files).toHaveLength(1);
    const eml = readFileSync(join(dataDir, 'mail', files[0]!), 'utf8');
    const parsed = await simpleParser(eml);
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe('fay@example.com');
    const token = /https:\/\/id\.example\.test\/activate\/([A-Za-z0-9_-]{43})/.exec(parsed.text ?? '')?.[1];
    expect(token).toBeDefined();
    expect(eml).not.toContain('evil.example.com');
    expect(logs.text).toContain(files[0]);
    expect(logs.text).not.toContain(token);
  });
});
