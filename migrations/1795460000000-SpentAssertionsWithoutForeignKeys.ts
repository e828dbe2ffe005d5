import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A spent client assertion's row lives at most ten minutes and is written on the token endpoint's
 * hot path: the foreign keys to its client and tenant cost a lookup and a row lock per insert and
 * protected nothing a purge does not. They go.
 */
export class SpentAssertionsWithoutForeignKeys1795460000000 implements MigrationInterface {
  name = 'SpentAssertionsWithoutForeignKeys1795460000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "used_client_assertions" DROP CONSTRAINT "FK_1d2388fa14e912b3e47403206bf"`);
    await queryRunner.query(`ALTER TABLE "used_client_assertions" DROP CONSTRAINT "FK_bfceb3df42de36764364efdec43"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DELETE FROM "used_client_assertions" u WHERE NOT EXISTS (SELECT 1 FROM "api_clients" c WHERE c."id" = u."api_client_id") OR NOT EXISTS (SELECT 1 FROM "tenants" t WHERE t."id" = u."tenant_id")`);
    await queryRunner.query(
      `ALTER TABLE "used_client_assertions" ADD CONSTRAINT "FK_bfceb3df42de36764364efdec43" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "used_client_assertions" ADD CONSTRAINT "FK_1d2388fa14e912b3e47403206bf" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
