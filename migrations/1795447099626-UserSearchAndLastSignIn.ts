import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The console's and the admin API's user search: a case-insensitive prefix match on username,
 * email and display name. One btree per column on the lower-cased value with text_pattern_ops
 * (so `LIKE 'prefix%'` is an index range scan whatever the database's collation), led by the
 * tenant; the planner ORs the three scans. The list's order (creation to the millisecond, as
 * cursors hold it) gets an index of its own: the expression in UTC is immutable, so every page
 * is an index range scan at a million users, and a common prefix walks it and filters. Also the
 * time of each user's last sign-in, and invitations by user (the console's user page).
 */
export class UserSearchAndLastSignIn1795447099626 implements MigrationInterface {
    name = 'UserSearchAndLastSignIn1795447099626'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "users" ADD "last_sign_in_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`CREATE INDEX "users_tenant_order_idx" ON "users" ("tenant_id", date_trunc('milliseconds', "created_at" AT TIME ZONE 'UTC'), "id")`);
        await queryRunner.query(`CREATE INDEX "users_search_username_idx" ON "users" ("tenant_id", "username_normalized" text_pattern_ops)`);
        await queryRunner.query(`CREATE INDEX "users_search_email_idx" ON "users" ("tenant_id", lower("email") text_pattern_ops)`);
        await queryRunner.query(`CREATE INDEX "users_search_display_name_idx" ON "users" ("tenant_id", lower("display_name") text_pattern_ops)`);
        await queryRunner.query(`CREATE INDEX "invitations_tenant_user_idx" ON "invitations" ("tenant_id", "user_id") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."invitations_tenant_user_idx"`);
        await queryRunner.query(`DROP INDEX "public"."users_search_display_name_idx"`);
        await queryRunner.query(`DROP INDEX "public"."users_search_email_idx"`);
        await queryRunner.query(`DROP INDEX "public"."users_search_username_idx"`);
        await queryRunner.query(`DROP INDEX "public"."users_tenant_order_idx"`);
        await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "last_sign_in_at"`);
    }

}
