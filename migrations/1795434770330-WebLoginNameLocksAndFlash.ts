import { MigrationInterface, QueryRunner } from "typeorm";

export class WebLoginNameLocksAndFlash1795434770330 implements MigrationInterface {
    name = 'WebLoginNameLocksAndFlash1795434770330'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "login_name_locks" ("tenant_id" uuid NOT NULL, "username_normalized" text NOT NULL, "failed_login_count" integer NOT NULL DEFAULT '0', "locked_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_5d0aa8badb18f03a40099c36fd4" PRIMARY KEY ("tenant_id", "username_normalized"))`);
        await queryRunner.query(`ALTER TABLE "sessions" ADD "flash" jsonb`);
        await queryRunner.query(`ALTER TABLE "login_name_locks" ADD CONSTRAINT "FK_182aae636251e63808a56f740dd" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "login_name_locks" DROP CONSTRAINT "FK_182aae636251e63808a56f740dd"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "flash"`);
        await queryRunner.query(`DROP TABLE "login_name_locks"`);
    }

}
