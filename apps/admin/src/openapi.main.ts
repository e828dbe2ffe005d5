import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@gatehouse/config';
import { AdminModule } from './admin.module.js';
import { buildOpenApiDocument } from './openapi.js';

/**
 * Writes the admin API's OpenAPI document to the file named as the first argument (stdout
 * without one), for the lint in CI. Nest's preview mode builds the routes without creating a
 * provider, so no database is needed.
 */
async function main(): Promise<void> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'error',
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    SECRET_PEPPER: '00'.repeat(32),
    KEY_ENCRYPTION_KEY: '00'.repeat(32),
  });
  const app = await NestFactory.create(AdminModule.register({ config }), { preview: true, logger: false });
  const document = JSON.stringify(buildOpenApiDocument(app), null, 2);
  const file = process.argv[2];
  if (file) writeFileSync(file, `${document}\n`);
  else process.stdout.write(`${document}\n`);
  await app.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
