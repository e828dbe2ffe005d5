import { MigrationInterface, QueryRunner } from "typeorm";

export class StaffListIndex1795439854315 implements MigrationInterface {
    name = 'StaffListIndex1795439854315'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE INDEX "users_tenant_staff_idx" ON "users"  ("tenant_id") WHERE cardinality("roles") > 0`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."users_tenant_staff_idx"`);
    }

}
