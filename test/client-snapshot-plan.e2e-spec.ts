import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_SNAPSHOTS_SQL } from '@gatehouse/tokens';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

describe('the token path’s client snapshot statement', () => {
  let database: TestDatabase;
  let client: pg.Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
    // Enough clients that the planner prices lookups per wanted client, as in production.
    const [tenant] = (await client.query(`INSERT INTO tenants (slug, display_name) VALUES ('plan', 'Plan') RETURNING id`)).rows;
    await client.query(
      `INSERT INTO api_clients (tenant_id, client_id, display_name, state)
       SELECT $1, gen_random_uuid(), 'Client ' || n, 'active' FROM generate_series(1, 20000) AS n`,
      [tenant.id],
    );
    await client.query('ANALYZE');
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });

  it('is planned once per connection, not again for each batch of one or two clients (a generic plan)', async () => {
    const id = () => crypto.randomUUID();
    for (let i = 0; i < 12; i++) {
      const size = 1 + (i % 2);
      const wanted = Array.from({ length: size }, () => [id(), id()] as const);
      const { rows } = await client.query({
        name: 'snapshots',
        text: CLIENT_SNAPSHOTS_SQL,
        values: [wanted.map((w) => w[0]), wanted.map((w) => w[1])],
      });
      expect(rows).toEqual([]);
    }
    const { rows } = await client.query<{ generic: number; custom: number }>(
      `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE name = 'snapshots'`,
    );
    // PostgreSQL tries five custom plans, then keeps the generic one once it is no dearer.
    expect(rows[0]).toEqual({ generic: 7, custom: 5 });
  });
});
