import { MigrationInterface, QueryRunner } from "typeorm";

export class LoginSourceThrottles1795399223055 implements MigrationInterface {
    name = 'LoginSourceThrottles1795399223055'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "login_source_throttles" ("tenant_id" uuid NOT NULL, "source" text NOT NULL, "failures" integer NOT NULL DEFAULT '0', "window_started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "blocked_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_818d393dc971a29b0283f86b184" PRIMARY KEY ("tenant_id", "source"))`);
        await queryRunner.query(`ALTER TABLE "login_source_throttles" ADD CONSTRAINT "FK_4ebc17ac256d2c8a6199927d132" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "login_source_throttles" DROP CONSTRAINT "FK_4ebc17ac256d2c8a6199927d132"`);
        await queryRunner.query(`DROP TABLE "login_source_throttles"`);
    }

}
