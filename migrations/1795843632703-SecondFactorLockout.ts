import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Wrong second factors are counted and locked apart from wrong passwords, so a password change
 * (which clears the password's count) never clears them (SECURITY 58, issue 37 M1).
 */
export class SecondFactorLockout1795843632703 implements MigrationInterface {
    name = 'SecondFactorLockout1795843632703'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "users" ADD "failed_second_factor_count" integer NOT NULL DEFAULT '0'`);
        await queryRunner.query(`ALTER TABLE "users" ADD "second_factor_locked_until" TIMESTAMP WITH TIME ZONE`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "second_factor_locked_until"`);
        await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "failed_second_factor_count"`);
    }

}
