import { MigrationInterface, QueryRunner } from "typeorm";

export class StaffSecondFactors1795435375230 implements MigrationInterface {
    name = 'StaffSecondFactors1795435375230'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "totp_factors" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "user_id" uuid NOT NULL, "sealed_secret" bytea NOT NULL, "last_used_step" integer, "confirmed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3ab02528685c52521bbefeddfbe" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "totp_factors_user_key" ON "totp_factors"  ("user_id") `);
        await queryRunner.query(`CREATE TABLE "recovery_codes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "user_id" uuid NOT NULL, "code_hash" bytea NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_0723b9e53961e799027d7f7ba32" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "recovery_codes_user_hash_key" ON "recovery_codes"  ("user_id", "code_hash") `);
        await queryRunner.query(`ALTER TABLE "totp_factors" ADD CONSTRAINT "FK_1eefd6ca7e0533c757c132bbb36" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "totp_factors" ADD CONSTRAINT "FK_eded11141800ddff9dfbd017fd2" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "recovery_codes" ADD CONSTRAINT "FK_c3a170aab37609221b780d4225f" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "recovery_codes" ADD CONSTRAINT "FK_fb82b2ac740ca095b617afad031" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "recovery_codes" DROP CONSTRAINT "FK_fb82b2ac740ca095b617afad031"`);
        await queryRunner.query(`ALTER TABLE "recovery_codes" DROP CONSTRAINT "FK_c3a170aab37609221b780d4225f"`);
        await queryRunner.query(`ALTER TABLE "totp_factors" DROP CONSTRAINT "FK_eded11141800ddff9dfbd017fd2"`);
        await queryRunner.query(`ALTER TABLE "totp_factors" DROP CONSTRAINT "FK_1eefd6ca7e0533c757c132bbb36"`);
        await queryRunner.query(`DROP INDEX "public"."recovery_codes_user_hash_key"`);
        await queryRunner.query(`DROP TABLE "recovery_codes"`);
        await queryRunner.query(`DROP INDEX "public"."totp_factors_user_key"`);
        await queryRunner.query(`DROP TABLE "totp_factors"`);
    }

}
