import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoginService, SecondFactorService, UserService, hashPassword } from '@gatehouse/accounts';
import { SYSTEM_ACTOR } from '@gatehouse/audit';
import { createAdminApp } from '../apps/admin/src/admin.app.js';
import { testConfig } from './support/test-config.js';
import { type TestDatabase, createTestDatabase } from './support/test-database.js';
import { authenticatorApp } from './support/totp.js';

const PASSWORD = 'a staff passphrase that is long';

/** Staff second factors against a real Postgres (SECURITY.md 44). */
describe('staff second factors', () => {
  let database: TestDatabase;
  let app: INestApplication;
  let db: DataSource;
  let factors: SecondFactorService;
  let tenantId: string;

  async function enrolled(username: string) {
    const user = await app.get(UserService).create(tenantId, SYSTEM_ACTOR, {
      username,
      email: `${username}@example.com`,
      displayName: username,
      roles: ['Auditor'],
    });
    await db.query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [user.id, await hashPassword(PASSWORD)]);
    const enrolment = await factors.enrolment(tenantId, { id: user.id, username }, 'Gatehouse (acme)');
    const totp = authenticatorApp(enrolment.secret);
    const firstCode = totp.code();
    const confirmed = await factors.confirmEnrolment(tenantId, user.id, firstCode);
    if (!confirmed.ok) throw new Error('enrolment failed');
    return { user, totp, firstCode, secret: enrolment.secret, recoveryCodes: confirmed.recoveryCodes };
  }

  /** Wrong second factors are counted and locked apart from wrong passwords (SECURITY 58). */
  const failures = async (id: string) =>
    (await db.query(`SELECT failed_second_factor_count AS n, second_factor_locked_until > now() AS locked FROM users WHERE id = $1`, [id]))[0] as {
      n: number;
      locked: boolean | null;
    };

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await createAdminApp({ config: testConfig(database.url) });
    db = app.get(DataSource);
    factors = app.get(SecondFactorService);
    [{ id: tenantId }] = await db.query(`INSERT INTO tenants (slug, display_name) VALUES ('acme', 'Acme') RETURNING id`);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('keeps the seed sealed at rest and shows the same pending secret until it is confirmed', async () => {
    const [{ id }] = await db.query(
      `INSERT INTO users (tenant_id, username, username_normalized, email, display_name, roles) VALUES ($1, 'pia', 'pia', 'pia@x', 'Pia', '{Auditor}') RETURNING id`,
      [tenantId],
    );
    const first = await factors.enrolment(tenantId, { id, username: 'pia' }, 'Gatehouse (acme)');
    const again = await factors.enrolment(tenantId, { id, username: 'pia' }, 'Gatehouse (acme)');
    expect(again.secret).toBe(first.secret);
    const [row] = await db.query(`SELECT sealed_secret FROM totp_factors WHERE user_id = $1`, [id]);
    const stored = (row.sealed_secret as Buffer).toString('latin1');
    expect(stored).not.toContain(first.secret);
    expect(stored).not.toContain(Buffer.from(first.secret).toString('latin1'));
    const wrong = await factors.confirmEnrolment(tenantId, id, authenticatorApp(first.secret).wrongCode());
    expect(wrong).toEqual({ ok: false, lockedUntil: null });
    expect((await failures(id)).n).toBe(1);
  });

  it('accepts a code once: the same code again is refused and counted', async () => {
    const { user, totp, firstCode } = await enrolled('quinn');
    expect(await factors.verify(tenantId, user.id, firstCode)).toMatchObject({ ok: false }); // enrolment used it
    await db.query(`UPDATE users SET failed_second_factor_count = 0, second_factor_locked_until = NULL WHERE id = $1`, [user.id]);
    const code = totp.code(1); // the next step, within the skew
    expect(await factors.verify(tenantId, user.id, code)).toEqual({ ok: true, method: 'totp' });
    expect(await factors.verify(tenantId, user.id, code)).toEqual({ ok: false, lockedUntil: null });
    expect((await failures(user.id)).n).toBe(1);
    expect(await factors.verify(tenantId, user.id, totp.code(-1))).toMatchObject({ ok: false }); // older than the last one
  });

  it('five wrong codes lock the account as five wrong passwords would, on a count of their own; then even the right code is refused', async () => {
    const { user, totp } = await enrolled('rosa');
    for (let n = 1; n <= 5; n++) {
      await db.query(`UPDATE users SET second_factor_locked_until = NULL WHERE id = $1`, [user.id]); // skip the short waits
      const outcome = await factors.verify(tenantId, user.id, totp.wrongCode(), '10.0.0.9');
      expect(outcome.ok).toBe(false);
      expect((await failures(user.id)).n).toBe(n);
    }
    expect(await failures(user.id)).toMatchObject({ n: 5, locked: true });
    const refused = await factors.verify(tenantId, user.id, totp.code());
    expect(refused.ok).toBe(false);
    expect(refused.ok ? null : refused.lockedUntil?.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    const login = await app.get(LoginService).authenticate(tenantId, 'rosa', PASSWORD);
    expect(login).toMatchObject({ ok: false }); // the password step says the account is locked too
    expect((await db.query(`SELECT failed_login_count AS n FROM users WHERE id = $1`, [user.id]))[0].n).toBe(0);
    const audit = await db.query(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'user.mfa.failed' AND target_id = $1`, [user.id]);
    expect(audit[0].n).toBe(5);
  });

  it('a right password does not reset the failures of an account with a second factor; a right code does', async () => {
    const { user, totp } = await enrolled('sam');
    await factors.verify(tenantId, user.id, totp.wrongCode());
    await factors.verify(tenantId, user.id, totp.wrongCode());
    expect((await app.get(LoginService).authenticate(tenantId, 'sam', PASSWORD)).ok).toBe(true);
    expect((await failures(user.id)).n).toBe(2);
    await db.query(`UPDATE users SET second_factor_locked_until = NULL WHERE id = $1`, [user.id]);
    expect((await factors.verify(tenantId, user.id, totp.code(1))).ok).toBe(true);
    expect((await failures(user.id)).n).toBe(0);
  });

  it('a source address blocked by the sign-in throttle gets no code checked', async () => {
    const { user, totp } = await enrolled('uma');
    await db.query(
      `INSERT INTO login_source_throttles (tenant_id, source, failures, window_started_at, blocked_until) VALUES ($1, '10.9.9.9', 30, now(), now() + interval '10 minutes')`,
      [tenantId],
    );
    expect(await factors.verify(tenantId, user.id, totp.code(1), '10.9.9.9')).toEqual({ ok: false, lockedUntil: null, throttled: true });
    expect((await factors.verify(tenantId, user.id, totp.code(1), '10.9.9.10')).ok).toBe(true);
  });

  it('recovery codes: ten, hashed, each used once; regenerating kills the old ones', async () => {
    const { user, recoveryCodes } = await enrolled('tara');
    expect(recoveryCodes).toHaveLength(10);
    const stored: Array<{ code_hash: Buffer }> = await db.query(`SELECT code_hash FROM recovery_codes WHERE user_id = $1`, [user.id]);
    expect(stored).toHaveLength(10);
    for (const { code_hash } of stored) for (const code of recoveryCodes) expect(code_hash.toString('latin1')).not.toContain(code);
    const typed = recoveryCodes[3]!.toLowerCase();
    expect(await factors.verify(tenantId, user.id, typed)).toEqual({ ok: true, method: 'recovery_code', recoveryCodesLeft: 9 });
    expect(await factors.verify(tenantId, user.id, recoveryCodes[3]!)).toMatchObject({ ok: false });
    const actor = { type: 'user' as const, userId: user.id, clientId: null };
    const fresh = await factors.regenerateRecoveryCodes(tenantId, actor, user.id);
    expect(fresh).toHaveLength(10);
    expect(await factors.verify(tenantId, user.id, recoveryCodes[4]!)).toMatchObject({ ok: false });
    expect(await factors.verify(tenantId, user.id, fresh[0]!)).toMatchObject({ ok: true, recoveryCodesLeft: 9 });
  });
});
