import { MigrationInterface, QueryRunner } from "typeorm";

export class AccessRequestsAndHandovers1795434909890 implements MigrationInterface {
    name = 'AccessRequestsAndHandovers1795434909890'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "access_requests" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "status" text NOT NULL DEFAULT 'unverified', "origin" text NOT NULL, "requester_name" text NOT NULL, "requester_email" text NOT NULL, "requester_email_normalized" text NOT NULL, "organisation" text NOT NULL, "wants_account" boolean NOT NULL, "documentation_wanted" text, "account_reason" text, "wants_api" boolean NOT NULL, "system_name" text, "technical_contact_email" text, "api_purpose" text, "source_address" text, "filed_by_user_id" uuid, "confirm_token_hash" bytea, "confirm_expires_at" TIMESTAMP WITH TIME ZONE, "confirmed_at" TIMESTAMP WITH TIME ZONE, "decided_by_user_id" uuid, "decided_at" TIMESTAMP WITH TIME ZONE, "decision_note" text, "section_slugs" text array NOT NULL DEFAULT '{}', "user_id" uuid, "api_client_id" uuid, "invitation_id" uuid, "account_delivered_at" TIMESTAMP WITH TIME ZONE, "credentials_delivered_at" TIMESTAMP WITH TIME ZONE, "fulfilled_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "access_requests_api_check" CHECK (NOT "wants_api" OR ("system_name" IS NOT NULL AND "technical_contact_email" IS NOT NULL AND "api_purpose" IS NOT NULL)), CONSTRAINT "access_requests_account_check" CHECK (NOT "wants_account" OR ("documentation_wanted" IS NOT NULL AND "account_reason" IS NOT NULL)), CONSTRAINT "access_requests_kind_check" CHECK ("wants_account" OR "wants_api"), CONSTRAINT "access_requests_origin_check" CHECK ("origin" IN ('web', 'staff')), CONSTRAINT "access_requests_status_check" CHECK ("status" IN ('unverified', 'submitted', 'approved', 'rejected', 'fulfilled', 'expired')), CONSTRAINT "PK_f89e51c15e3dbea13aa248fe128" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "access_requests_api_client_idx" ON "access_requests"  ("api_client_id") WHERE "api_client_id" IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "access_requests_user_idx" ON "access_requests"  ("user_id") WHERE "user_id" IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "access_requests_unverified_expiry_idx" ON "access_requests"  ("confirm_expires_at") WHERE "status" = 'unverified'`);
        await queryRunner.query(`CREATE INDEX "access_requests_open_by_email_idx" ON "access_requests"  ("tenant_id", "requester_email_normalized") WHERE "status" IN ('unverified', 'submitted')`);
        await queryRunner.query(`CREATE INDEX "access_requests_tenant_created_idx" ON "access_requests"  ("tenant_id", "created_at", "id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "access_requests_confirm_token_hash_key" ON "access_requests"  ("confirm_token_hash") `);
        await queryRunner.query(`CREATE TABLE "access_request_throttles" ("failures" integer NOT NULL DEFAULT '0', "window_started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "blocked_until" TIMESTAMP WITH TIME ZONE, "tenant_id" uuid NOT NULL, "source" text NOT NULL, CONSTRAINT "PK_f008c742fde3be087c58d353b22" PRIMARY KEY ("tenant_id", "source"))`);
        await queryRunner.query(`CREATE TABLE "credential_handovers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "api_client_id" uuid NOT NULL, "access_request_id" uuid, "recipient_email" text NOT NULL, "token_hash" bytea NOT NULL, "status" text NOT NULL DEFAULT 'pending', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_by_user_id" uuid, "responsible_user_id" uuid, "revealed_at" TIMESTAMP WITH TIME ZONE, "revealed_from" text, "secret_key_id" uuid, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "credential_handovers_revealed_check" CHECK ("status" <> 'revealed' OR "revealed_at" IS NOT NULL), CONSTRAINT "credential_handovers_status_check" CHECK ("status" IN ('pending', 'revealed', 'expired', 'revoked')), CONSTRAINT "PK_959e28b5e00e683fb454598a444" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "credential_handovers_pending_expiry_idx" ON "credential_handovers"  ("expires_at") WHERE "status" = 'pending'`);
        await queryRunner.query(`CREATE INDEX "credential_handovers_request_idx" ON "credential_handovers"  ("access_request_id") WHERE "access_request_id" IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "credential_handovers_client_idx" ON "credential_handovers"  ("api_client_id", "created_at") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "credential_handovers_token_hash_key" ON "credential_handovers"  ("token_hash") `);
        await queryRunner.query(`ALTER TABLE "access_requests" ADD CONSTRAINT "FK_3a6a62a423df4c78b4c6626df42" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "access_requests" ADD CONSTRAINT "FK_2751849a8823f0730d081647a8f" FOREIGN KEY ("filed_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "access_requests" ADD CONSTRAINT "FK_88595949772fe356e16a27a28bf" FOREIGN KEY ("decided_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "access_requests" ADD CONSTRAINT "FK_2ac9d8f34e67c1f029d11a27027" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "access_requests" ADD CONSTRAINT "FK_739aa12d9f13c12ca0b0f46c76f" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "access_requests" ADD CONSTRAINT "FK_13ef00592f715b0b4c1846850fe" FOREIGN KEY ("invitation_id") REFERENCES "invitations"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "access_request_throttles" ADD CONSTRAINT "FK_9539bcfa8db91dbbdd10ca98ac1" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" ADD CONSTRAINT "FK_792bcda91a9e1902f2111775b34" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" ADD CONSTRAINT "FK_13e872d4be4df1a24ae2f78d735" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" ADD CONSTRAINT "FK_b60a141f27d1f91443db012433c" FOREIGN KEY ("access_request_id") REFERENCES "access_requests"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" ADD CONSTRAINT "FK_2f0a2c5a18b0a37dd11a113c1c6" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" ADD CONSTRAINT "FK_08ab1853a3e9d98fd12c600917f" FOREIGN KEY ("responsible_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "credential_handovers" DROP CONSTRAINT "FK_08ab1853a3e9d98fd12c600917f"`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" DROP CONSTRAINT "FK_2f0a2c5a18b0a37dd11a113c1c6"`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" DROP CONSTRAINT "FK_b60a141f27d1f91443db012433c"`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" DROP CONSTRAINT "FK_13e872d4be4df1a24ae2f78d735"`);
        await queryRunner.query(`ALTER TABLE "credential_handovers" DROP CONSTRAINT "FK_792bcda91a9e1902f2111775b34"`);
        await queryRunner.query(`ALTER TABLE "access_request_throttles" DROP CONSTRAINT "FK_9539bcfa8db91dbbdd10ca98ac1"`);
        await queryRunner.query(`ALTER TABLE "access_requests" DROP CONSTRAINT "FK_13ef00592f715b0b4c1846850fe"`);
        await queryRunner.query(`ALTER TABLE "access_requests" DROP CONSTRAINT "FK_739aa12d9f13c12ca0b0f46c76f"`);
        await queryRunner.query(`ALTER TABLE "access_requests" DROP CONSTRAINT "FK_2ac9d8f34e67c1f029d11a27027"`);
        await queryRunner.query(`ALTER TABLE "access_requests" DROP CONSTRAINT "FK_88595949772fe356e16a27a28bf"`);
        await queryRunner.query(`ALTER TABLE "access_requests" DROP CONSTRAINT "FK_2751849a8823f0730d081647a8f"`);
        await queryRunner.query(`ALTER TABLE "access_requests" DROP CONSTRAINT "FK_3a6a62a423df4c78b4c6626df42"`);
        await queryRunner.query(`DROP INDEX "public"."credential_handovers_token_hash_key"`);
        await queryRunner.query(`DROP INDEX "public"."credential_handovers_client_idx"`);
        await queryRunner.query(`DROP INDEX "public"."credential_handovers_request_idx"`);
        await queryRunner.query(`DROP INDEX "public"."credential_handovers_pending_expiry_idx"`);
        await queryRunner.query(`DROP TABLE "credential_handovers"`);
        await queryRunner.query(`DROP TABLE "access_request_throttles"`);
        await queryRunner.query(`DROP INDEX "public"."access_requests_confirm_token_hash_key"`);
        await queryRunner.query(`DROP INDEX "public"."access_requests_tenant_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."access_requests_open_by_email_idx"`);
        await queryRunner.query(`DROP INDEX "public"."access_requests_unverified_expiry_idx"`);
        await queryRunner.query(`DROP INDEX "public"."access_requests_user_idx"`);
        await queryRunner.query(`DROP INDEX "public"."access_requests_api_client_idx"`);
        await queryRunner.query(`DROP TABLE "access_requests"`);
    }

}
