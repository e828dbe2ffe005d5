import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A signing key can be revoked: the emergency rollover (for the day a key leaks) takes the
 * previous key out of the JWKS at once, so every token it signed stops verifying. The row stays,
 * listed as `revoked`, until its would-be publication ends, then the sweep deletes it like a
 * retired key. (TypeORM compares check constraints by name, so this one is written by hand.)
 */
export class RevokedSigningKeys1795537000001 implements MigrationInterface {
  name = 'RevokedSigningKeys1795537000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "signing_keys" DROP CONSTRAINT "signing_keys_status_check"`);
    await queryRunner.query(
      `ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_status_check" CHECK ("status" IN ('next', 'active', 'retired', 'revoked'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "signing_keys" WHERE "status" = 'revoked'`);
    await queryRunner.query(`ALTER TABLE "signing_keys" DROP CONSTRAINT "signing_keys_status_check"`);
    await queryRunner.query(
      `ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_status_check" CHECK ("status" IN ('next', 'active', 'retired'))`,
    );
  }
}
