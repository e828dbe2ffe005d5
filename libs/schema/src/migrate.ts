import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@gatehouse/database';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../../../migrations/index.js';

/** Applies every pending migration (each in its own transaction); returns the names applied. */
export async function migrateDatabase(url: string): Promise<string[]> {
  const dataSource = new DataSource(
    dataSourceOptions({ url, entities: ENTITIES, migrations: MIGRATIONS, poolSize: 1, applicationName: 'gatehouse-migrate' }),
  );
  await dataSource.initialize();
  try {
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((migration) => migration.name);
  } finally {
    await dataSource.destroy();
  }
}
