import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataSourceOptions } from '@gatehouse/database';
import { ENTITIES, MIGRATIONS } from '@gatehouse/schema';
import { RequestScopesOfAdminApi1795434909891 } from '../migrations/1795434909891-RequestScopesOfAdminApi.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

/** Tenants created before access requests existed get their permissions as admin-API scopes. */
describe('migration: the access-request scopes of every built-in admin API', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = new DataSource(
      dataSourceOptions({ url: database.url, entities: ENTITIES, migrations: MIGRATIONS, poolSize: 1 }),
    );
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const scopes = (apiId: string) =>
    dataSource
      .query(`SELECT value FROM api_scopes WHERE api_id = $1 AND value LIKE 'Requests.%' ORDER BY value`, [apiId])
      .then((rows: Array<{ value: string }>) => rows.map((r) => r.value));

  it('adds Requests.Read and Requests.Decide to built-in admin APIs only, once', async () => {
    const [tenant] = await dataSource.query(
      `INSERT INTO tenants (slug, display_name) VALUES ('old', 'Old') RETURNING id`,
    );
    const [adminApi] = await dataSource.query(
      `INSERT INTO apis (tenant_id, app_id, identifier, display_name, built_in)
       VALUES ($1, gen_random_uuid(), 'api://gatehouse-admin', 'Admin', true) RETURNING id`,
      [tenant.id],
    );
    await dataSource.query(`INSERT INTO api_scopes (tenant_id, api_id, value) VALUES ($1, $2, 'Users.Read')`, [
      tenant.id,
      adminApi.id,
    ]);
    const [orders] = await dataSource.query(
      `INSERT INTO apis (tenant_id, app_id, identifier, display_name) VALUES ($1, gen_random_uuid(), 'api://orders', 'Orders') RETURNING id`,
      [tenant.id],
    );
    const migration = new RequestScopesOfAdminApi1795434909891();
    const runner = dataSource.createQueryRunner();
    try {
      await migration.up(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    expect(await scopes(adminApi.id)).toEqual(['Requests.Decide', 'Requests.Read']);
    expect(await scopes(orders.id)).toEqual([]);
  });
});
