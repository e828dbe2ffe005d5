import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AppConfig } from '@gatehouse/config';
import { DemoError, DemoFillService, DemoModule, type DemoSignIn, refusal } from '@gatehouse/demo';
import { BootstrapService } from '@gatehouse/provisioning';
import { migrateDatabase } from '@gatehouse/schema';
import { writeBootstrapFile } from './bootstrap.command.js';
import { type CommandInput, CommandError } from './command.js';
import { type DatabaseRuntime, resolveDatabase } from './database-runtime.js';
import { type DemoSheet, demoBox } from './demo-box.js';
import { createProvisioningContext } from './provisioning.context.js';
import { readyBox } from './ready-box.js';
import { DEFAULT_TENANT, orStop, serveAll } from './start.run.js';

/**
 * `npm run demo`: on an empty database (or one a first start has just set up) tenant `default` is
 * bootstrapped if need be and filled through the use cases; on a demo filled before, nothing is
 * changed; any other database is refused. Then, like `npm start`, every app runs, and the sign-ins
 * are printed last (`--fill-only`: printed, with how to start, and the command ends).
 */
export async function demo(input: CommandInput): Promise<number> {
  const runtime = await resolveDatabase(input.config(), input.log);
  const sheet = await orStop(runtime, () => prepare(runtime, input));
  const config = runtime.config;
  if (input.values['fill-only'] === true) {
    await runtime.stop();
    input.out(`${demoBox(config, DEFAULT_TENANT, sheet)}\nStart the console with \`npm start\` (the same DATA_DIR or DATABASE_URL).\n`);
    return 0;
  }
  return serveAll(runtime, input, () => readyBox(config, DEFAULT_TENANT, undefined) + demoBox(config, DEFAULT_TENANT, sheet));
}

async function prepare(runtime: DatabaseRuntime, input: CommandInput): Promise<DemoSheet> {
  const { config } = runtime;
  const log = input.log;
  const hint = elsewhere(input.config());
  const applied = await migrateDatabase(config.databaseUrl);
  if (applied.length) log(`applied migrations: ${applied.join(', ')}`);
  const context = await createProvisioningContext(config, undefined, DemoModule);
  try {
    const demo = context.get(DemoFillService);
    const state = await demo.state(DEFAULT_TENANT);
    if (state.kind === 'filled') return { filledNow: false, made: [], signIns: readSignIns(config.dataDir) };
    if (state.kind === 'other') throw refused(refusal(state, DEFAULT_TENANT), hint);
    if (state.kind === 'empty') {
      const bootstrapped = await context.get(BootstrapService).bootstrap({ tenant: DEFAULT_TENANT, rotateSecret: false });
      log(`bootstrapped tenant "${DEFAULT_TENANT}"; its client's credentials are in ${writeBootstrapFile(config.dataDir, bootstrapped)}`);
    }
    log(`filling tenant "${DEFAULT_TENANT}" with demo data`);
    const filled = await demo.fill(DEFAULT_TENANT).catch((error: unknown) => {
      throw error instanceof DemoError ? refused(error, hint) : error;
    });
    writeSignIns(config.dataDir, filled.signIns);
    return { filledNow: true, made: filled.made, signIns: filled.signIns };
  } finally {
    await context.close();
  }
}

/** The refusal, and where the demo may run instead: a data directory (or database) of its own. */
function refused(error: DemoError, hint: string): CommandError {
  return new CommandError(`${error.message} ${hint}`);
}

function elsewhere(config: AppConfig): string {
  return config.databaseUrl
    ? 'Point DATABASE_URL at an empty database for the demo.'
    : `Give the demo a place of its own: DATA_DIR=${suggestedDataDir(config.dataDir)} npm run demo (and the same DATA_DIR for \`npm start\` later).`;
}

function suggestedDataDir(dataDir: string): string {
  const relativeTo = relative(process.cwd(), dataDir);
  return `${relativeTo && !relativeTo.startsWith('..') ? `./${relativeTo}` : dataDir}-demo`;
}

export const demoFile = (dataDir: string) => join(dataDir, 'demo.json');

/** The sign-ins beside bootstrap.json, readable by the owner only: a second run prints them again. */
function writeSignIns(dataDir: string, signIns: DemoSignIn[]): void {
  mkdirSync(dataDir, { recursive: true });
  const file = demoFile(dataDir);
  writeFileSync(file, `${JSON.stringify({ tenant: DEFAULT_TENANT, signIns }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

function readSignIns(dataDir: string): DemoSignIn[] | undefined {
  const file = demoFile(dataDir);
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { signIns: DemoSignIn[] }).signIns;
}
