import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { UserService } from '@gatehouse/accounts';
import { InvitationService, InvitationSweepService } from '@gatehouse/invitations';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { AdminFixtures } from './support/admin-fixtures.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';

describe('invitation expiry sweep', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let dataSource: DataSource;
  let fixtures: AdminFixtures;

  /**
   * A tenant with one user and `total` pending invitations, the first `overdue` of them an hour past
   * expiry, the next `recent` of them ten seconds past (within the sweep's grace).
   */
  async function seed(total: number, overdue: number, recent = 0): Promise<string> {
    const tenant = await fixtures.tenant();
    const user = await app.get(UserService).create(tenant.tenantId, SYSTEM_ACTOR, { username: 'u', email: 'u@example.com', displayName: 'U' });
    await dataSource.query(
      `INSERT INTO invitations (tenant_id, user_id, section_slugs, token_hash, status, expires_at)
       SELECT $1::uuid, $2::uuid, ARRAY['guide'], sha256(convert_to($1::text || ':' || g, 'UTF8')), 'pending',
              CASE WHEN g <= $3 THEN now() - interval '1 hour' WHEN g <= $3 + $5 THEN now() - interval '10 seconds'
                   ELSE now() + interval '7 days' END
         FROM generate_series(1, $4) AS g`,
      [tenant.tenantId, user.id, overdue, total, recent],
    );
    // The product writes no expiry in the past; these rows do, behind where the last test's sweep
    // stopped: the earlier tests' invitations go, and the sweep starts again from the beginning.
    await dataSource.query(`DELETE FROM invitations WHERE tenant_id <> $1`, [tenant.tenantId]);
    await dataSource.query(`UPDATE invitation_sweep_position SET expires_at = '-infinity', invitation_id = '00000000-0000-0000-0000-000000000000'`);
    return tenant.tenantId;
  }

  async function counts(tenantId: string) {
    const [row] = await dataSource.query(
      `SELECT count(*) FILTER (WHERE status = 'pending')::int AS stored_pending, count(*) FILTER (WHERE status <> 'pending')::int AS rewritten,
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
    const [a, b] = await Promise.all([sweeper.sweepExpired(100), sweeper.sweepExpired(100)]);
    expect(a.expired + b.expired).toBe(2500);
    for (const size of [...a.batches, ...b.batches]) expect(size).toBeLessThanOrEqual(100);
    // The sweep audits; it does not rewrite the invitations (past expiry is expired whatever is stored).
    expect(await counts(tenantId)).toEqual({ stored_pending: 3000, rewritten: 0, audited: 2500, audited_targets: 2500 });
    const [audit] = await dataSource.query(
      `SELECT actor_type, target_name, details FROM audit_events WHERE tenant_id = $1 AND action = 'invitation.expired' LIMIT 1`,
      [tenantId],
    );
    // Named after the invited person, as every invitation event is (the audit shows names, not ids).
    expect(audit).toMatchObject({ actor_type: 'system', target_name: 'U', details: { userId: expect.any(String), expiresAt: expect.any(String) } });
  });

  it('100,000 pending of which 10,000 overdue: ten batches of 1,000, then nothing left to do', async () => {
    const tenantId = await seed(100_000, 10_000);
    const sweeper = app.get(InvitationSweepService);
    const result = await sweeper.sweepExpired(1000);
    expect(result).toEqual({ batches: Array(10).fill(1000), expired: 10_000 });
    expect(await counts(tenantId)).toEqual({ stored_pending: 100_000, rewritten: 0, audited: 10_000, audited_targets: 10_000 });
    expect(await sweeper.sweepExpired(1000)).toEqual({ batches: [], expired: 0 });
  }, 120_000);

  it('leaves what expired within the last minute to a later sweep; it reads as expired already', async () => {
    const tenantId = await seed(40, 25, 5);
    const sweeper = app.get(InvitationSweepService);
    expect(await sweeper.sweepExpired(10)).toEqual({ batches: [10, 10, 5], expired: 25 });
    expect(await counts(tenantId)).toEqual({ stored_pending: 40, rewritten: 0, audited: 25, audited_targets: 25 });
    const listed = await app.get(InvitationService).list(tenantId, { status: 'expired', limit: 100 });
    expect(listed.items).toHaveLength(30);
    await dataSource.query(
      `UPDATE invitations SET expires_at = expires_at - interval '1 minute' WHERE tenant_id = $1 AND expires_at BETWEEN now() - interval '1 minute' AND now()`,
      [tenantId],
    );
    expect(await sweeper.sweepExpired(10)).toEqual({ batches: [5], expired: 5 });
    expect(await counts(tenantId)).toEqual({ stored_pending: 40, rewritten: 0, audited: 30, audited_targets: 30 });
  });

  it('refuses to resend or revoke an overdue invitation, so what the sweep read stays true', async () => {
    const tenantId = await seed(1, 1);
    const [row] = await dataSource.query(`SELECT id FROM invitations WHERE tenant_id = $1`, [tenantId]);
    const service = app.get(InvitationService);
    await expect(service.resend(tenantId, SYSTEM_ACTOR, row.id, {})).rejects.toMatchObject({ code: 'invitation_not_pending' });
    await expect(service.revoke(tenantId, SYSTEM_ACTOR, row.id)).rejects.toMatchObject({ code: 'invitation_not_pending' });
    expect(await app.get(InvitationSweepService).sweepExpired()).toEqual({ batches: [1], expired: 1 });
  });
});
