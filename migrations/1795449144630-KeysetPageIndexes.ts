import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * The audit log and the outbox page by (time to the millisecond, id), the position their cursors
 * carry. An index on exactly that expression lets every page, first or last, be one short index
 * range scan instead of a sort of the tenant's whole log. `AT TIME ZONE 'UTC'` makes the
 * expression immutable, which an index requires.
 */
export class KeysetPageIndexes1795449144630 implements MigrationInterface {
    name = 'KeysetPageIndexes1795449144630'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "audit_events_tenant_position_idx" ON "audit_events" ("tenant_id", date_trunc('milliseconds', "occurred_at" AT TIME ZONE 'UTC'), "id")`);
        await queryRunner.query(`CREATE INDEX "emails_tenant_position_idx" ON "emails" ("tenant_id", date_trunc('milliseconds', "created_at" AT TIME ZONE 'UTC'), "id")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."emails_tenant_position_idx"`);
        await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_position_idx"`);
    }

}
