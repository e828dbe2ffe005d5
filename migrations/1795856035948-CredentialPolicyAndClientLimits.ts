import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * A tenant's credential policy (maximum secret and certificate lifetimes, allowed kinds, from when,
 * and the stale-credential settings), and per client the source ranges its token requests may
 * come from and its tokens per hour. No policy row and null limits: everything as before.
 */
export class CredentialPolicyAndClientLimits1795856035948 implements MigrationInterface {
    name = 'CredentialPolicyAndClientLimits1795856035948'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "credential_policies" ("tenant_id" uuid NOT NULL, "max_secret_lifetime_days" integer NOT NULL, "max_certificate_lifetime_days" integer, "allowed_credential_kinds" text array NOT NULL, "effective_from" TIMESTAMP WITH TIME ZONE NOT NULL, "stale_credential_days" integer NOT NULL DEFAULT '90', "disable_stale_credentials" boolean NOT NULL DEFAULT false, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "credential_policies_kinds_check" CHECK ("allowed_credential_kinds" <@ ARRAY['secret', 'certificate', 'federated']::text[] AND cardinality("allowed_credential_kinds") > 0), CONSTRAINT "credential_policies_stale_days_check" CHECK ("stale_credential_days" BETWEEN 1 AND 3650), CONSTRAINT "credential_policies_certificate_days_check" CHECK ("max_certificate_lifetime_days" BETWEEN 1 AND 3650), CONSTRAINT "credential_policies_secret_days_check" CHECK ("max_secret_lifetime_days" BETWEEN 1 AND 730), CONSTRAINT "PK_5882f319de2306cd215531ca3d2" PRIMARY KEY ("tenant_id"))`);
        await queryRunner.query(`ALTER TABLE "api_clients" ADD "allowed_source_ranges" text array`);
        await queryRunner.query(`ALTER TABLE "api_clients" ADD "tokens_per_hour" integer`);
        await queryRunner.query(`ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_tokens_per_hour_check" CHECK ("tokens_per_hour" > 0)`);
        await queryRunner.query(`ALTER TABLE "credential_policies" ADD CONSTRAINT "FK_5882f319de2306cd215531ca3d2" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "credential_policies" DROP CONSTRAINT "FK_5882f319de2306cd215531ca3d2"`);
        await queryRunner.query(`ALTER TABLE "api_clients" DROP CONSTRAINT "api_clients_tokens_per_hour_check"`);
        await queryRunner.query(`ALTER TABLE "api_clients" DROP COLUMN "tokens_per_hour"`);
        await queryRunner.query(`ALTER TABLE "api_clients" DROP COLUMN "allowed_source_ranges"`);
        await queryRunner.query(`DROP TABLE "credential_policies"`);
    }

}
