import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Every console form acts once: each sending of a form claims its one-time token, and a result
 * shown once (a new secret) waits encrypted until its page is opened. A form sent after the
 * session ended is kept for its person until they sign in again.
 */
export class FormsActOnce1795855880872 implements MigrationInterface {
    name = 'FormsActOnce1795855880872'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "form_submissions" ("session_id" bytea NOT NULL, "token" text NOT NULL, "path" text NOT NULL, "content_hash" bytea NOT NULL, "state" text NOT NULL DEFAULT 'pending', "location" text, "message" text, "view" bytea, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "completed_at" TIMESTAMP WITH TIME ZONE, "shown_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_4f6fac96cd488d774d5293620c6" PRIMARY KEY ("session_id", "token"))`);
        await queryRunner.query(`CREATE INDEX "form_submissions_path_idx" ON "form_submissions"  ("session_id", "path", "created_at") `);
        await queryRunner.query(`CREATE TABLE "form_stashes" ("id" bytea NOT NULL, "tenant_id" uuid NOT NULL, "user_id" uuid NOT NULL, "action" text NOT NULL, "fields" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_19dad1597a39aa96e928e236240" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "form_stashes_expires_idx" ON "form_stashes"  ("expires_at") `);
        await queryRunner.query(`ALTER TABLE "form_submissions" ADD CONSTRAINT "FK_9837ad60473ff7ce1700954d73c" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "form_stashes" ADD CONSTRAINT "FK_9df21e253c4d0d7ce07203253de" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "form_stashes" ADD CONSTRAINT "FK_3791e60028dc08fe7585b4b0219" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "form_stashes" DROP CONSTRAINT "FK_3791e60028dc08fe7585b4b0219"`);
        await queryRunner.query(`ALTER TABLE "form_stashes" DROP CONSTRAINT "FK_9df21e253c4d0d7ce07203253de"`);
        await queryRunner.query(`ALTER TABLE "form_submissions" DROP CONSTRAINT "FK_9837ad60473ff7ce1700954d73c"`);
        await queryRunner.query(`DROP INDEX "public"."form_stashes_expires_idx"`);
        await queryRunner.query(`DROP TABLE "form_stashes"`);
        await queryRunner.query(`DROP INDEX "public"."form_submissions_path_idx"`);
        await queryRunner.query(`DROP TABLE "form_submissions"`);
    }

}
