import { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

export interface DatabaseOptionsInput {
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
  poolSize?: number;
  applicationName?: string;
}

/** One place that shapes every TypeORM connection: migrations only, never `synchronize`. */
export function dataSourceOptions(input: DatabaseOptionsInput): DataSourceOptions {
  return {
    type: 'postgres',
    url: input.url,
    entities: input.entities,
    migrations: input.migrations,
    migrationsTableName: 'typeorm_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    uuidExtension: 'pgcrypto',
    installExtensions: true,
    namingStrategy: new SnakeNamingStrategy(),
    logging: false,
    applicationName: input.applicationName ?? 'gatehouse',
    extra: {
      max: input.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      // Idle connections stay open (at most `max` a process): closed after 30 s, they were
      // opened again by the next burst, each with its statements to prepare and plan, and at a
      // million clients every such moment was a second of 100–230 ms p99 (BENCHMARKS.md).
      idleTimeoutMillis: 0,
    },
  };
}
