import { MigrationInterface, QueryRunner } from "typeorm";

export class StaffPasskeys1795439309639 implements MigrationInterface {
    name = 'StaffPasskeys1795439309639'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "passkeys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "user_id" uuid NOT NULL, "credential_id" text NOT NULL, "public_key" bytea NOT NULL, "sign_count" bigint NOT NULL DEFAULT '0', "transports" text array NOT NULL DEFAULT '{}', "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_db928e6fd79e7098911268a74c3" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "passkeys_user_idx" ON "passkeys"  ("user_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "passkeys_credential_key" ON "passkeys"  ("credential_id") `);
        await queryRunner.query(`ALTER TABLE "sessions" ADD "webauthn_challenge" text`);
        await queryRunner.query(`ALTER TABLE "passkeys" ADD CONSTRAINT "FK_211974bdb27321c93695badce3e" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "passkeys" ADD CONSTRAINT "FK_02227b9a8a34a808e3e23800b00" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "passkeys" DROP CONSTRAINT "FK_02227b9a8a34a808e3e23800b00"`);
        await queryRunner.query(`ALTER TABLE "passkeys" DROP CONSTRAINT "FK_211974bdb27321c93695badce3e"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "webauthn_challenge"`);
        await queryRunner.query(`DROP INDEX "public"."passkeys_credential_key"`);
        await queryRunner.query(`DROP INDEX "public"."passkeys_user_idx"`);
        await queryRunner.query(`DROP TABLE "passkeys"`);
    }

}
