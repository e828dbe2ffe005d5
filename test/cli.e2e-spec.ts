import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalProcess, freePort, scratch } from './support/compose-topology.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

const DIST = resolve(import.meta.dirname, '../dist/apps');
const CLI = `${DIST}/cli/src/main.js`;
const STACK_FRAME = /\n\s+at /;

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH!, DATA_DIR: scratch('cli'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

describe('command line: exit codes, usage errors, one process per role with a clean SIGTERM', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('answers a wrong command line with one line and exit code 2, never a stack trace', async () => {
    const cases = [
      [],
      ['nope'],
      ['operator', 'invite', '--email', 'x'],
      ['bootstrap', '--tenat', 'x'],
      ['bootstrap'],
      ['migrate', 'extra'],
      ['start', '--port', '1'],
    ];
    const results = await Promise.all(cases.map((args) => run([CLI, ...args])));
    for (const [i, args] of cases.entries()) {
      const result = results[i]!;
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).not.toMatch(STACK_FRAME);
      if (args.length) expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    const help = await run([CLI, '--help']);
    expect(help.code).toBe(0);
    for (const command of ['migrate', 'bootstrap', 'start', 'identity', 'admin', 'worker'])
      expect(help.stdout).toContain(`  ${command}`);
  });

  it('a bad configuration exits non-zero from every entry point, naming the variable', async () => {
    const entries = [
      [CLI, 'start'],
      [CLI, 'identity'],
      [CLI, 'migrate'],
      ...['identity', 'admin', 'worker'].map((app) => [`${DIST}/${app}/src/main.js`]),
    ];
    const results = await Promise.all(entries.map((args) => run(args, { PORT: 'abc', DATABASE_URL: database.url })));
    for (const [i, args] of entries.entries()) {
      const result = results[i]!;
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain('PORT must be a port number');
      expect(result.stderr).not.toMatch(STACK_FRAME);
    }
    const noDatabase = await run([CLI, 'worker']);
    expect(noDatabase.code).toBe(1);
    expect(noDatabase.stderr).toMatch(/^DATABASE_URL is required to run the worker app on its own/);
  });

  it('identity, admin and worker each run on their own and stop with exit code 0 on SIGTERM', async () => {
    const roles = [[CLI, 'identity'], [CLI, 'admin'], [CLI, 'worker'], [`${DIST}/identity/src/main.js`]];
    const started = await Promise.all(
      roles.map(async (args) => {
        const managementPort = await freePort();
        const env = {
          PATH: process.env.PATH!,
          DATABASE_URL: database.url,
          DATA_DIR: scratch('cli-role'),
          PORT: String(await freePort()),
          ADMIN_PORT: String(await freePort()),
          MANAGEMENT_PORT: String(managementPort),
          LOG_LEVEL: 'warn',
        };
        return { process: new LocalProcess(args.join(' '), [process.execPath, ...args], env), managementPort };
      }),
    );
    for (const { process: child, managementPort } of started) {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const ready = await fetch(`http://127.0.0.1:${managementPort}/health/ready`).then(
          (r) => r.ok,
          () => false,
        );
        if (ready) break;
        if (!child.running || Date.now() > deadline)
          throw new Error(`${child.name} never became ready:\n${child.output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    for (const { process: child } of started) {
      expect(await child.stop('SIGTERM'), child.output).toBe(0);
      expect(child.output).toContain('stopping: draining');
      expect(child.output).not.toMatch(STACK_FRAME);
    }
  });
});
