import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * "Forgot your password?": the public form's queue of requests (the worker looks the account up,
 * so the form does the same work whether or not it names one), the per-source and per-address
 * throttles, and the one-hour `self_service_reset` account link. And the index behind the
 * Overview's count of handovers that expired without being revealed.
 */
export class PasswordResetAndExpiredHandovers1795845292771 implements MigrationInterface {
    name = 'PasswordResetAndExpiredHandovers1795845292771'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "account_links" DROP CONSTRAINT "account_links_purpose_kinds_check"`);
        await queryRunner.query(`CREATE TABLE "password_reset_requests" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "identifier" text NOT NULL, "source" text, "requested_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4aa83fc224280f3c94c3e214d65" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "password_reset_requests_due_idx" ON "password_reset_requests"  ("requested_at") `);
        await queryRunner.query(`CREATE TABLE "password_reset_throttles" ("failures" integer NOT NULL DEFAULT '0', "window_started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "blocked_until" TIMESTAMP WITH TIME ZONE, "tenant_id" uuid NOT NULL, "subject" text NOT NULL, CONSTRAINT "PK_b8f99f004b233abff50adf22266" PRIMARY KEY ("tenant_id", "subject"))`);
        await queryRunner.query(`CREATE INDEX "credential_handovers_expired_idx" ON "credential_handovers"  ("tenant_id") WHERE "status" = 'expired'`);
        await queryRunner.query(`ALTER TABLE "account_links" ADD CONSTRAINT "account_links_purposes_check" CHECK ("purpose" IN ('activation', 'reset', 'console_activation', 'self_service_reset'))`);
        await queryRunner.query(`ALTER TABLE "password_reset_requests" ADD CONSTRAINT "FK_ba7acc8133ab514f7581f6417d2" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "password_reset_throttles" ADD CONSTRAINT "FK_d57de08bb217c650bcedf556482" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "password_reset_throttles" DROP CONSTRAINT "FK_d57de08bb217c650bcedf556482"`);
        await queryRunner.query(`ALTER TABLE "password_reset_requests" DROP CONSTRAINT "FK_ba7acc8133ab514f7581f6417d2"`);
        await queryRunner.query(`ALTER TABLE "account_links" DROP CONSTRAINT "account_links_purposes_check"`);
        await queryRunner.query(`DROP INDEX "public"."credential_handovers_expired_idx"`);
        await queryRunner.query(`DROP TABLE "password_reset_throttles"`);
        await queryRunner.query(`DROP INDEX "public"."password_reset_requests_due_idx"`);
        await queryRunner.query(`DROP TABLE "password_reset_requests"`);
        await queryRunner.query(`ALTER TABLE "account_links" ADD CONSTRAINT "account_links_purpose_kinds_check" CHECK ((purpose = ANY (ARRAY['activation'::text, 'reset'::text, 'console_activation'::text])))`);
    }

}
