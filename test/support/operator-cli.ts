import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AppConfig } from '@gatehouse/config';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js');

/** Runs the built command line (`npm run cli -- …`) against a test's database and keys. */
export async function cli(config: AppConfig, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-cli-'));
  try {
    return await run(process.execPath, [CLI, ...args], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: config.databaseUrl,
        ADMIN_PUBLIC_URL: config.adminPublicUrl,
        PUBLIC_URL: config.publicUrl,
        SECRET_PEPPER: config.secretPepper.toString('hex'),
        KEY_ENCRYPTION_KEY: config.keyEncryptionKey.toString('hex'),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
