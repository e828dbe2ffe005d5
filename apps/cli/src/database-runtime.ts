import type { AppConfig } from '@gatehouse/config';
import { startEmbeddedPostgres } from '@gatehouse/database';

export interface DatabaseRuntime {
  config: AppConfig & { databaseUrl: string };
  stop(): Promise<void>;
}

/** Uses DATABASE_URL, or starts the embedded Postgres under DATA_DIR when it is unset. */
export async function resolveDatabase(config: AppConfig, log: (line: string) => void): Promise<DatabaseRuntime> {
  if (config.databaseUrl) {
    return { config: { ...config, databaseUrl: config.databaseUrl }, stop: async () => undefined };
  }
  if (config.nodeEnv === 'production') {
    throw new Error('DATABASE_URL is required when NODE_ENV=production (the embedded database is for development)');
  }
  const embedded = await startEmbeddedPostgres(config.dataDir, log);
  return { config: { ...config, databaseUrl: embedded.url }, stop: () => embedded.stop() };
}
