import { MigrationInterface, QueryRunner } from "typeorm";

export class EmailRetryUntil1795434731162 implements MigrationInterface {
    name = 'EmailRetryUntil1795434731162'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "emails" ADD "retry_until" TIMESTAMP WITH TIME ZONE`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "emails" DROP COLUMN "retry_until"`);
    }

}
