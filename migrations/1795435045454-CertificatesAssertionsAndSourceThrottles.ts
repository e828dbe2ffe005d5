import { MigrationInterface, QueryRunner } from "typeorm";

export class CertificatesAssertionsAndSourceThrottles1795435045454 implements MigrationInterface {
    name = 'CertificatesAssertionsAndSourceThrottles1795435045454'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "client_certificates" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "api_client_id" uuid NOT NULL, "key_id" uuid NOT NULL, "display_name" text NOT NULL DEFAULT '', "thumbprint" text NOT NULL, "x5t" text NOT NULL, "x5t_s256" text NOT NULL, "subject" text NOT NULL, "not_before" TIMESTAMP WITH TIME ZONE NOT NULL, "not_after" TIMESTAMP WITH TIME ZONE NOT NULL, "certificate_der" bytea NOT NULL, "expiry_warned_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7a57ec7d17c89909a49d5dba03e" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "client_certificates_expiry_idx" ON "client_certificates"  ("not_after") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "client_certificates_client_thumbprint_key" ON "client_certificates"  ("api_client_id", "x5t_s256") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "client_certificates_key_id_key" ON "client_certificates"  ("key_id") `);
        await queryRunner.query(`CREATE TABLE "source_throttles" ("failures" integer NOT NULL DEFAULT '0', "window_started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "blocked_until" TIMESTAMP WITH TIME ZONE, "tenant_id" uuid NOT NULL, "source" text NOT NULL, CONSTRAINT "PK_ed6225a84820929b253a77c9762" PRIMARY KEY ("tenant_id", "source"))`);
        await queryRunner.query(`CREATE TABLE "used_client_assertions" ("api_client_id" uuid NOT NULL, "jti" text NOT NULL, "tenant_id" uuid NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_63b69b3c2173b0e544c9e97e1de" PRIMARY KEY ("api_client_id", "jti"))`);
        await queryRunner.query(`CREATE INDEX "used_client_assertions_expiry_idx" ON "used_client_assertions"  ("expires_at") `);
        await queryRunner.query(`ALTER TABLE "apis" ADD "access_token_version" smallint NOT NULL DEFAULT '2'`);
        await queryRunner.query(`ALTER TABLE "signing_keys" ADD "certificate_der" bytea`);
        await queryRunner.query(`CREATE INDEX "client_secrets_hash_idx" ON "client_secrets"  ("secret_hash") WHERE "revoked_at" IS NULL`);
        await queryRunner.query(`ALTER TABLE "apis" ADD CONSTRAINT "apis_access_token_version_check" CHECK ("access_token_version" IN (1, 2))`);
        await queryRunner.query(`ALTER TABLE "client_certificates" ADD CONSTRAINT "FK_752487e6f1177b4c8fd2fbe6184" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "client_certificates" ADD CONSTRAINT "FK_f471691596468524d64b05711a2" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "source_throttles" ADD CONSTRAINT "FK_c1f595da18595aeab86e03b9155" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "used_client_assertions" ADD CONSTRAINT "FK_bfceb3df42de36764364efdec43" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "used_client_assertions" ADD CONSTRAINT "FK_1d2388fa14e912b3e47403206bf" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "used_client_assertions" DROP CONSTRAINT "FK_1d2388fa14e912b3e47403206bf"`);
        await queryRunner.query(`ALTER TABLE "used_client_assertions" DROP CONSTRAINT "FK_bfceb3df42de36764364efdec43"`);
        await queryRunner.query(`ALTER TABLE "source_throttles" DROP CONSTRAINT "FK_c1f595da18595aeab86e03b9155"`);
        await queryRunner.query(`ALTER TABLE "client_certificates" DROP CONSTRAINT "FK_f471691596468524d64b05711a2"`);
        await queryRunner.query(`ALTER TABLE "client_certificates" DROP CONSTRAINT "FK_752487e6f1177b4c8fd2fbe6184"`);
        await queryRunner.query(`ALTER TABLE "apis" DROP CONSTRAINT "apis_access_token_version_check"`);
        await queryRunner.query(`DROP INDEX "public"."client_secrets_hash_idx"`);
        await queryRunner.query(`ALTER TABLE "signing_keys" DROP COLUMN "certificate_der"`);
        await queryRunner.query(`ALTER TABLE "apis" DROP COLUMN "access_token_version"`);
        await queryRunner.query(`DROP INDEX "public"."used_client_assertions_expiry_idx"`);
        await queryRunner.query(`DROP TABLE "used_client_assertions"`);
        await queryRunner.query(`DROP TABLE "source_throttles"`);
        await queryRunner.query(`DROP INDEX "public"."client_certificates_key_id_key"`);
        await queryRunner.query(`DROP INDEX "public"."client_certificates_client_thumbprint_key"`);
        await queryRunner.query(`DROP INDEX "public"."client_certificates_expiry_idx"`);
        await queryRunner.query(`DROP TABLE "client_certificates"`);
    }

}
