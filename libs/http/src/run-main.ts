import { type AppConfig, ConfigError, loadConfig } from '@gatehouse/config';
import { type AppRole, runApps } from './process-runner.js';

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * The whole life of a single-app process (each app's `main.ts`): read the configuration (a bad
 * value stops with a message naming it and exit code 1), run until SIGTERM, drain, exit 0.
 */
export function runMain(
  app: string,
  env: Record<string, string | undefined>,
  roles: (config: AppConfig & { databaseUrl: string }) => AppRole[],
): void {
  let config: AppConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    log(error instanceof ConfigError ? error.message : `${app}: ${(error as Error).message}`);
    process.exit(1);
  }
  if (!config.databaseUrl) {
    log(`DATABASE_URL is required to run the ${app} app on its own (the embedded Postgres is only for \`npm start\`).`);
    process.exit(1);
  }
  const resolved = { ...config, databaseUrl: config.databaseUrl };
  runApps(resolved, roles(resolved), { log }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      log(`${app}: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
