import { MigrationInterface, QueryRunner } from "typeorm";

export class FederatedCredentials1795842406767 implements MigrationInterface {
    name = 'FederatedCredentials1795842406767'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "client_federated_credentials" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "api_client_id" uuid NOT NULL, "name" text NOT NULL, "issuer" text NOT NULL, "subject" text, "claims_expression" text, "claims_expression_version" smallint, "audiences" text array NOT NULL, "description" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "client_federated_credentials_one_matcher_check" CHECK (("subject" IS NULL) <> ("claims_expression" IS NULL) AND ("claims_expression" IS NULL) = ("claims_expression_version" IS NULL)), CONSTRAINT "PK_dd853c3ed82011bcf856ab0bcff" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "client_federated_credentials_tenant_issuer_idx" ON "client_federated_credentials"  ("tenant_id", "issuer") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "client_federated_credentials_client_name_key" ON "client_federated_credentials"  ("api_client_id", "name") `);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" ADD CONSTRAINT "FK_c61d2c212cec00fe7b6ccaa4154" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" ADD CONSTRAINT "FK_391a87ce2e8dd52b2e713662939" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" DROP CONSTRAINT "FK_391a87ce2e8dd52b2e713662939"`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" DROP CONSTRAINT "FK_c61d2c212cec00fe7b6ccaa4154"`);
        await queryRunner.query(`DROP INDEX "public"."client_federated_credentials_client_name_key"`);
        await queryRunner.query(`DROP INDEX "public"."client_federated_credentials_tenant_issuer_idx"`);
        await queryRunner.query(`DROP TABLE "client_federated_credentials"`);
    }

}
