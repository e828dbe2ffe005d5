import { MigrationInterface, QueryRunner } from "typeorm";

export class AuditSourceAddress1795447054096 implements MigrationInterface {
    name = 'AuditSourceAddress1795447054096'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "audit_events" ADD "source_address" text`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "source_address"`);
    }

}
