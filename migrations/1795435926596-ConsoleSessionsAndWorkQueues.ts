import { MigrationInterface, QueryRunner } from "typeorm";

export class ConsoleSessionsAndWorkQueues1795435926596 implements MigrationInterface {
    name = 'ConsoleSessionsAndWorkQueues1795435926596'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "account_links" DROP CONSTRAINT "account_links_purpose_check"`);
        await queryRunner.query(`ALTER TABLE "sessions" ADD "kind" text NOT NULL DEFAULT 'web'`);
        await queryRunner.query(`ALTER TABLE "sessions" ADD "second_factor_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "sessions" ADD "user_agent" text`);
        await queryRunner.query(`ALTER TABLE "sessions" ADD "source" text`);
        await queryRunner.query(`CREATE INDEX "users_tenant_locked_idx" ON "users"  ("tenant_id", "locked_until") WHERE "locked_until" IS NOT NULL`);
        await queryRunner.query(`CREATE INDEX "emails_tenant_abandoned_idx" ON "emails"  ("tenant_id") WHERE "status" = 'abandoned'`);
        await queryRunner.query(`CREATE INDEX "api_clients_tenant_awaiting_idx" ON "api_clients"  ("tenant_id") WHERE "state" = 'awaiting_scopes'`);
        await queryRunner.query(`ALTER TABLE "account_links" ADD CONSTRAINT "account_links_purpose_kinds_check" CHECK ("purpose" IN ('activation', 'reset', 'console_activation'))`);
        await queryRunner.query(`ALTER TABLE "sessions" ADD CONSTRAINT "sessions_kind_check" CHECK ("kind" IN ('web', 'console'))`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "sessions" DROP CONSTRAINT "sessions_kind_check"`);
        await queryRunner.query(`ALTER TABLE "account_links" DROP CONSTRAINT "account_links_purpose_kinds_check"`);
        await queryRunner.query(`DROP INDEX "public"."api_clients_tenant_awaiting_idx"`);
        await queryRunner.query(`DROP INDEX "public"."emails_tenant_abandoned_idx"`);
        await queryRunner.query(`DROP INDEX "public"."users_tenant_locked_idx"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "source"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "user_agent"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "second_factor_at"`);
        await queryRunner.query(`ALTER TABLE "sessions" DROP COLUMN "kind"`);
        await queryRunner.query(`ALTER TABLE "account_links" ADD CONSTRAINT "account_links_purpose_check" CHECK ((purpose = ANY (ARRAY['activation'::text, 'reset'::text])))`);
    }

}
