import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserService } from '@gatehouse/accounts';
import { InvitationSweepService } from '@gatehouse/invitations';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures } from './support/admin-fixtures.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

describe('invitation expiry sweep', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let fixtures: AdminFixtures;

  /** A tenant with one user and `total` pending invitations, the first `overdue` of them past expiry. */
  async function seed(total: number, overdue: number): Promise<string> {
    const tenant = await fixtures.tenant();
    const user = await app.get(UserService).create(tenant.tenantId, SYSTEM_ACTOR, { username: 'u', email: 'u@example.com', displayName: 'U' });
    await dataSource.query(
      `INSERT INTO invitations (tenant_id, user_id, section_slugs, token_hash, status, expires_at)
       SELECT $1::uuid, $2::uuid, ARRAY['guide'], sha256(convert_to($1::text || ':' || g, 'UTF8')), 'pending',
              CASE WHEN g <= $3 THEN now() - interval '1 minute' ELSE now() + interval '7 days' END
         FROM generate_series(1, $4) AS g`,
      [tenant.tenantId, user.id, overdue, total],
    );
    return tenant.tenantId;
  }

  async function counts(tenantId: string) {
    const [row] = await dataSource.query(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'expired')::int AS expired,
              (SELECT count(*)::int FROM audit_events WHERE tenant_id = $1 AND action = 'invitation.expired') AS audited,
              (SELECT count(DISTINCT target_id)::int FROM audit_events WHERE tenant_id = $1 AND action = 'invitation.expired') AS audited_targets
         FROM invitations WHERE tenant_id = $1`,
      [tenantId],
    );
    return row;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url);
    app = await createAdminApp({ config });
    dataSource = app.get(DataSource);
    fixtures = new AdminFixtures(app, config);
  });

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('two sweeps at once on separate connections expire each overdue invitation exactly once, audited', async () => {
    const tenantId = await seed(3000, 2500);
    const sweeper = app.get(InvitationSweepService);
    const [a, b] = await Promise.all([sweeper.sweepExpired(100, 1), sweeper.sweepExpired(100, 1)]);
    expect(a.expired + b.expired).toBe(2500);
    for (const size of [...a.batches, ...b.batches]) expect(size).toBeLessThanOrEqual(100);
    expect(await counts(tenantId)).toEqual({ pending: 500, expired: 2500, audited: 2500, audited_targets: 2500 });
    const [audit] = await dataSource.query(`SELECT actor_type, details FROM audit_events WHERE tenant_id = $1 AND action = 'invitation.expired' LIMIT 1`, [tenantId]);
    expect(audit).toMatchObject({ actor_type: 'system', details: { userId: expect.any(String), expiresAt: expect.any(String) } });
  });

  it('100,000 pending of which 10,000 overdue: ten batches of 1,000 on one lane, then nothing left to do', async () => {
    const tenantId = await seed(100_000, 10_000);
    const sweeper = app.get(InvitationSweepService);
    const result = await sweeper.sweepExpired(1000, 1);
    expect(result).toEqual({ batches: Array(10).fill(1000), expired: 10_000 });
    expect(await counts(tenantId)).toEqual({ pending: 90_000, expired: 10_000, audited: 10_000, audited_targets: 10_000 });
    expect(await sweeper.sweepExpired(1000, 1)).toEqual({ batches: [], expired: 0 });
  }, 120_000);

  it('lanes side by side expire each overdue invitation once, in batches no larger than asked', async () => {
    const tenantId = await seed(20_000, 7_500);
    const sweeper = app.get(InvitationSweepService);
    const result = await sweeper.sweepExpired(1000, 3);
    expect(result.expired).toBe(7_500);
    for (const size of result.batches) expect(size).toBeLessThanOrEqual(1000);
    expect(await counts(tenantId)).toEqual({ pending: 12_500, expired: 7_500, audited: 7_500, audited_targets: 7_500 });
    expect(await sweeper.sweepExpired()).toEqual({ batches: [], expired: 0 });
  }, 120_000);
});
