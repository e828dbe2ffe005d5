import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningKeyService } from '@gatehouse/tokens';
import type { OperatorFixture } from './support/admin-fixtures.js';
import { AccessApps } from './support/access-apps.js';

/**
 * Every way a tenant's keys change, at once and again: an algorithm change (PATCH /tenant), two
 * emergency rollovers (one revoking), the scheduled rotation and a rollover as the benchmark makes
 * it. Each takes its locks in one order (the tenant's row, the active key's row, the tenant's key
 * lock), so none waits for another in turn: no deadlock, no 500, one active key at the end.
 */
describe('concurrent signing key changes', () => {
  const apps = new AccessApps();
  let administrator: OperatorFixture;

  beforeAll(async () => {
    await apps.start({ logLevel: 'error' });
    administrator = await apps.fixtures.operator(apps.tenant, ['Administrator']);
  }, 60_000);

  afterAll(() => apps.stop());

  it('fifteen rounds of five changes at once: every one succeeds', async () => {
    const keys = apps.admin.get(SigningKeyService);
    const tenantId = apps.tenant.tenantId;
    for (let round = 0; round < 15; round++) {
      const token = await apps.fixtures.token(apps.tenant, administrator, {});
      const algorithm = round % 2 ? 'RS256' : 'ES256';
      const answers = await Promise.all([
        apps.call('patch', '/tenant', token, { signingAlgorithm: algorithm }).then((r) => r.status),
        apps.call('post', '/tenant/signing-keys/rollover', token, { revokePrevious: round % 3 === 0 }).then((r) => r.status),
        apps.call('post', '/tenant/signing-keys/rollover', token, {}).then((r) => r.status),
        apps.dataSource.transaction((em) => keys.rollover(em, tenantId, algorithm)).then(() => 'rolled'),
        keys.rotateDueKeys(0, 0, 0).then(() => 'swept'),
      ]);
      expect(answers, `round ${round}`).toEqual([200, 201, 201, 'rolled', 'swept']);
    }
    expect(await apps.count(`SELECT count(*)::int AS n FROM signing_keys WHERE tenant_id = $1 AND status = 'active'`, [tenantId])).toBe(1);
    expect(apps.logs.text).not.toContain('deadlock');
  });
});
