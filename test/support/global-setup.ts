import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { TestProject } from 'vitest/node';
import { dataSourceOptions } from '@gatehouse/database';
import { ENTITIES, MIGRATIONS } from '@gatehouse/schema';
import { databaseUrl, withServer } from './test-database.js';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}

/**
 * Migrates a template database once per run; every test file clones it. The name is unique per
 * run so that two runs on one machine never touch each other's databases.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Every temporary folder of the run (data directories, embedded PostgreSQL, logs) goes under one
  // folder: the test processes and what they spawn inherit TMPDIR. Removed at the end, failed or not.
  const runDir = mkdtempSync(join(tmpdir(), 'gatehouse-run-'));
  chmodSync(runDir, 0o711); // the embedded PostgreSQL's own account passes through (tests run as root)
  process.env.TMPDIR = runDir;
  process.once('exit', () => rmSync(runDir, { recursive: true, force: true }));
  const template = `gatehouse_tpl_${randomBytes(4).toString('hex')}`;
  await withServer((client) => client.query(`CREATE DATABASE "${template}"`));
  const dataSource = new DataSource(
    dataSourceOptions({ url: databaseUrl(template), entities: ENTITIES, migrations: MIGRATIONS, poolSize: 1 }),
  );
  await dataSource.initialize();
  await dataSource.runMigrations({ transaction: 'each' });
  await dataSource.destroy();
  project.provide('templateDatabase', template);

  return async () => {
    rmSync(runDir, { recursive: true, force: true });
    if (existsSync(runDir)) throw new Error(`could not remove ${runDir}`);
    await withServer(async (client) => {
      const clones = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1`,
        [`${template.replace('tpl', 't')}\\_%`],
      );
      for (const { datname } of clones.rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await client.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    });
  };
}
