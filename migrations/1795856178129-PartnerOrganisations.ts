import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Partner organisations (§12): the organisation (name unique per tenant in any case, active or
 * offboarded, with the record of what its offboarding changed), and the organisation of each
 * user, client and access request.
 */
export class PartnerOrganisations1795856178129 implements MigrationInterface {
    name = 'PartnerOrganisations1795856178129'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "organisations" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "name" text NOT NULL, "name_normalized" text NOT NULL, "state" text NOT NULL DEFAULT 'active', "offboarded_at" TIMESTAMP WITH TIME ZONE, "offboarded_by_user_id" uuid, "offboarding" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "organisations_offboarded_check" CHECK ("state" <> 'offboarded' OR "offboarded_at" IS NOT NULL), CONSTRAINT "organisations_name_check" CHECK (char_length("name") BETWEEN 1 AND 200), CONSTRAINT "organisations_state_check" CHECK ("state" IN ('active', 'offboarded')), CONSTRAINT "PK_7bf54cba378d5b2f1d4c10ef4df" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "organisations_tenant_created_idx" ON "organisations"  ("tenant_id", "created_at", "id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "organisations_tenant_name_key" ON "organisations"  ("tenant_id", "name_normalized") `);
        await queryRunner.query(`ALTER TABLE "users" ADD "organisation_id" uuid`);
        await queryRunner.query(`ALTER TABLE "api_clients" ADD "organisation_id" uuid`);
        await queryRunner.query(`ALTER TABLE "access_requests" ADD "organisation_id" uuid`);
        await queryRunner.query(`CREATE INDEX "users_organisation_idx" ON "users"  ("organisation_id") WHERE "organisation_id" IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "api_clients_organisation_idx" ON "api_clients"  ("organisation_id") WHERE "organisation_id" IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "access_requests_organisation_idx" ON "access_requests"  ("organisation_id") WHERE "organisation_id" IS NOT NULL`);
        await queryRunner.query(`ALTER TABLE "organisations" ADD CONSTRAINT "FK_3a49c0f99d2c30b63b44b75025d" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "users" ADD CONSTRAINT "FK_2fc4294f8ec97da71d587dc5577" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_clients" ADD CONSTRAINT "FK_1dba765a4fce1deaf39c6b09022" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "access_requests" ADD CONSTRAINT "FK_971eb884d9d7d8e21b804e341a9" FOREIGN KEY ("organisation_id") REFERENCES "organisations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "access_requests" DROP CONSTRAINT "FK_971eb884d9d7d8e21b804e341a9"`);
        await queryRunner.query(`ALTER TABLE "api_clients" DROP CONSTRAINT "FK_1dba765a4fce1deaf39c6b09022"`);
        await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "FK_2fc4294f8ec97da71d587dc5577"`);
        await queryRunner.query(`ALTER TABLE "organisations" DROP CONSTRAINT "FK_3a49c0f99d2c30b63b44b75025d"`);
        await queryRunner.query(`DROP INDEX "public"."access_requests_organisation_idx"`);
        await queryRunner.query(`DROP INDEX "public"."api_clients_organisation_idx"`);
        await queryRunner.query(`DROP INDEX "public"."users_organisation_idx"`);
        await queryRunner.query(`ALTER TABLE "access_requests" DROP COLUMN "organisation_id"`);
        await queryRunner.query(`ALTER TABLE "api_clients" DROP COLUMN "organisation_id"`);
        await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "organisation_id"`);
        await queryRunner.query(`DROP INDEX "public"."organisations_tenant_name_key"`);
        await queryRunner.query(`DROP INDEX "public"."organisations_tenant_created_idx"`);
        await queryRunner.query(`DROP TABLE "organisations"`);
    }

}
