import type { DynamicModule, Type } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import { type AppConfig, ConfigModule } from '@gatehouse/config';
import { CryptoModule } from '@gatehouse/crypto';
import { DatabaseModule, dataSourceOptions } from '@gatehouse/database';
import { MetricsRegistry, OperationsModule } from '@gatehouse/http';
import { LoggingModule } from '@gatehouse/logging';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../../../migrations/index.js';

export interface CoreOptions {
  /** Name on every log line and in the database's application_name. */
  app: string;
  /** Log destination; tests capture logs through it. */
  logDestination?: DestinationStream;
  poolSize?: number;
  /** The process' registry (several apps in one process share it); a fresh one when absent. */
  metrics?: MetricsRegistry;
}

/** The platform every app stands on: config, database, crypto, logging, health and metrics. */
export function coreImports(config: AppConfig, options: CoreOptions): Array<DynamicModule | Type> {
  if (!config.databaseUrl) throw new Error('coreImports needs a resolved database URL');
  const database = dataSourceOptions({
    url: config.databaseUrl,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    poolSize: options.poolSize,
    applicationName: `gatehouse-${options.app}`,
  });
  const metrics = options.metrics ?? new MetricsRegistry();
  return [
    ConfigModule.forRoot(config),
    DatabaseModule.forRoot({ ...database, url: config.databaseUrl }, () => metrics.notifyReconnects.count++),
    CryptoModule,
    LoggingModule.forRoot(config, { app: options.app, destination: options.logDestination }),
    OperationsModule.forRoot(options.app, metrics),
  ];
}
