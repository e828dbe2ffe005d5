import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@gatehouse/database';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../../../migrations/index.js';

/**
 * The data source of the TypeORM CLI (`migration:generate`, `migration:run`), built into
 * `dist/libs/schema/src/data-source.js`. Apps build their connection from the same options.
 */
export default new DataSource(
  dataSourceOptions({
    // eslint-disable-next-line no-restricted-properties -- the TypeORM CLI has no other way in
    url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/gatehouse_dev',
    entities: ENTITIES,
    migrations: MIGRATIONS,
  }),
);
