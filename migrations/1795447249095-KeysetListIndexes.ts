import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lists are paged by (created or occurred millisecond, id); these indexes hold exactly that sort key
 * (in UTC, so the expression is immutable), so that the first and the last page of a million rows
 * read 51 index entries, and the audit log's filters (action, target, actor as a person or as a
 * client) read their own rows newest first instead of sorting every match. The audit filters' old
 * two-column indexes are their prefixes and go.
 */
export class KeysetListIndexes1795447249095 implements MigrationInterface {
  name = 'KeysetListIndexes1795447249095';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const key = (column: string) => `(date_trunc('milliseconds', "${column}" AT TIME ZONE 'UTC'))`;
    await queryRunner.query(`CREATE INDEX "users_keyset_idx" ON "users" ("tenant_id", ${key('created_at')}, "id")`);
    await queryRunner.query(`CREATE INDEX "api_clients_keyset_idx" ON "api_clients" ("tenant_id", ${key('created_at')}, "id")`);
    await queryRunner.query(
      `CREATE INDEX "api_clients_awaiting_keyset_idx" ON "api_clients" ("tenant_id", ${key('created_at')}, "id") WHERE "state" = 'awaiting_scopes'`,
    );
    await queryRunner.query(`CREATE INDEX "audit_events_keyset_idx" ON "audit_events" ("tenant_id", ${key('occurred_at')}, "id")`);
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
    for (const index of ['audit_events_keyset_idx', 'api_clients_awaiting_keyset_idx', 'api_clients_keyset_idx', 'users_keyset_idx']) {
      await queryRunner.query(`DROP INDEX "public"."${index}"`);
    }
  }
}
