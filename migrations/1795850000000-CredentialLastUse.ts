import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Last use of every secret, certificate and federated credential (time and source address) and of
 * every scope grant, written by the identity replicas at most once a minute; when a credential was
 * reported stale (once, until it is used again); and the indexes the credential report pages each
 * kind by (tenant, created, id).
 */
export class CredentialLastUse1795850000000 implements MigrationInterface {
    name = 'CredentialLastUse1795850000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "client_secrets" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_secrets" ADD "last_used_from" text`);
        await queryRunner.query(`ALTER TABLE "client_secrets" ADD "stale_reported_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_certificates" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_certificates" ADD "last_used_from" text`);
        await queryRunner.query(`ALTER TABLE "client_certificates" ADD "stale_reported_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" ADD "last_used_from" text`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" ADD "stale_reported_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_scope_grants" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "client_secrets_report_idx" ON "client_secrets" ("tenant_id", date_trunc('milliseconds', "created_at" AT TIME ZONE 'UTC'), "id")`);
        await queryRunner.query(`CREATE INDEX "client_certificates_report_idx" ON "client_certificates" ("tenant_id", date_trunc('milliseconds', "created_at" AT TIME ZONE 'UTC'), "id")`);
        await queryRunner.query(`CREATE INDEX "client_federated_credentials_report_idx" ON "client_federated_credentials" ("tenant_id", date_trunc('milliseconds', "created_at" AT TIME ZONE 'UTC'), "id")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."client_federated_credentials_report_idx"`);
        await queryRunner.query(`DROP INDEX "public"."client_certificates_report_idx"`);
        await queryRunner.query(`DROP INDEX "public"."client_secrets_report_idx"`);
        await queryRunner.query(`ALTER TABLE "client_scope_grants" DROP COLUMN "last_used_at"`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" DROP COLUMN "stale_reported_at"`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" DROP COLUMN "last_used_from"`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" DROP COLUMN "last_used_at"`);
        await queryRunner.query(`ALTER TABLE "client_certificates" DROP COLUMN "stale_reported_at"`);
        await queryRunner.query(`ALTER TABLE "client_certificates" DROP COLUMN "last_used_from"`);
        await queryRunner.query(`ALTER TABLE "client_certificates" DROP COLUMN "last_used_at"`);
        await queryRunner.query(`ALTER TABLE "client_secrets" DROP COLUMN "stale_reported_at"`);
        await queryRunner.query(`ALTER TABLE "client_secrets" DROP COLUMN "last_used_from"`);
        await queryRunner.query(`ALTER TABLE "client_secrets" DROP COLUMN "last_used_at"`);
    }
}
