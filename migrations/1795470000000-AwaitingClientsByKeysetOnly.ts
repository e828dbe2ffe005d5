import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clients awaiting scopes had two partial indexes: one on the tenant alone, one on the tenant and
 * the list's keyset position. Given both, the planner read every awaiting client through the first
 * and sorted them for each page (1,000 awaiting clients of 1,000,000: 0.59 ms, and a sort that
 * grows with the queue); with the keyset index alone a page reads its 51 rows in order. Counting
 * the queue (the console's sidebar) reads the keyset index as well. The first goes.
 */
export class AwaitingClientsByKeysetOnly1795470000000 implements MigrationInterface {
  name = 'AwaitingClientsByKeysetOnly1795470000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."api_clients_tenant_awaiting_idx"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "api_clients_tenant_awaiting_idx" ON "api_clients" ("tenant_id") WHERE "state" = 'awaiting_scopes'`,
    );
  }
}
