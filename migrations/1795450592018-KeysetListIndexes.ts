import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lists page by (created or occurred millisecond in UTC, id), the position their cursors carry
 * (users and the audit log got that index in their own migrations). Here: the clients list, alone
 * and awaiting scopes, and the audit log's filters (action, target, actor as a person or as a
 * client) with the position behind each, so a filtered page reads its own rows newest first
 * instead of sorting every match. The filters' old two-column indexes are prefixes of these and go.
 */
export class KeysetListIndexes1795450592018 implements MigrationInterface {
  name = 'KeysetListIndexes1795450592018';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const key = (column: string) => `date_trunc('milliseconds', "${column}" AT TIME ZONE 'UTC')`;
    await queryRunner.query(`CREATE INDEX "api_clients_keyset_idx" ON "api_clients" ("tenant_id", ${key('created_at')}, "id")`);
    await queryRunner.query(
      `CREATE INDEX "api_clients_awaiting_keyset_idx" ON "api_clients" ("tenant_id", ${key('created_at')}, "id") WHERE "state" = 'awaiting_scopes'`,
    );
    for (const [name, column] of [
      ['action', 'action'],
      ['target', 'target_id'],
      ['actor', 'actor_id'],
      ['actor_client', 'actor_client_id'],
    ]) {
      await queryRunner.query(
        `CREATE INDEX "audit_events_${name}_keyset_idx" ON "audit_events" ("tenant_id", "${column}", ${key('occurred_at')}, "id")`,
      );
    }
    await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_action_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_target_idx"`);
    await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_actor_idx"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "audit_events_tenant_actor_idx" ON "audit_events" ("tenant_id", "actor_id")`);
    await queryRunner.query(`CREATE INDEX "audit_events_tenant_target_idx" ON "audit_events" ("tenant_id", "target_id")`);
    await queryRunner.query(`CREATE INDEX "audit_events_tenant_action_idx" ON "audit_events" ("tenant_id", "action")`);
    for (const name of ['actor_client', 'actor', 'target', 'action']) {
      await queryRunner.query(`DROP INDEX "public"."audit_events_${name}_keyset_idx"`);
    }
    await queryRunner.query(`DROP INDEX "public"."api_clients_awaiting_keyset_idx"`);
    await queryRunner.query(`DROP INDEX "public"."api_clients_keyset_idx"`);
  }
}
