import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * v2 access tokens carry Entra's `typ: JWT` from now on (Spring Security and Nimbus refuse
 * `at+jwt` unless told otherwise); an API may keep RFC 9068's `at+jwt`. APIs that exist already
 * keep the `typ` their resource servers have been checking: v2 ones `at+jwt`, v1 ones `JWT`.
 * Tenants gain `scope_requests` (`entra`: only `.default`, as Entra allows).
 */
export class EntraTokenTypeAndScopeRequests1795845107312 implements MigrationInterface {
    name = 'EntraTokenTypeAndScopeRequests1795845107312'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "tenants" ADD "scope_requests" text NOT NULL DEFAULT 'extended'`);
        await queryRunner.query(`ALTER TABLE "apis" ADD "access_token_typ" text NOT NULL DEFAULT 'JWT'`);
        await queryRunner.query(`UPDATE "apis" SET "access_token_typ" = 'at+jwt' WHERE "access_token_version" = 2`);
        await queryRunner.query(`ALTER TABLE "tenants" ADD CONSTRAINT "tenants_scope_requests_check" CHECK ("scope_requests" IN ('extended', 'entra'))`);
        await queryRunner.query(`ALTER TABLE "apis" ADD CONSTRAINT "apis_access_token_typ_check" CHECK ("access_token_typ" IN ('JWT', 'at+jwt'))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "apis" DROP CONSTRAINT "apis_access_token_typ_check"`);
        await queryRunner.query(`ALTER TABLE "tenants" DROP CONSTRAINT "tenants_scope_requests_check"`);
        await queryRunner.query(`ALTER TABLE "apis" DROP COLUMN "access_token_typ"`);
        await queryRunner.query(`ALTER TABLE "tenants" DROP COLUMN "scope_requests"`);
    }

}
