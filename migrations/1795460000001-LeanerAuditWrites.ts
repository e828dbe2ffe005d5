import type { MigrationInterface, QueryRunner } from 'typeorm';

const POSITION = `date_trunc('milliseconds', "occurred_at" AT TIME ZONE 'UTC')`;
const NULLABLE_KEYS = [
  ['target', 'target_id'],
  ['actor', 'actor_id'],
  ['actor_client', 'actor_client_id'],
] as const;

/**
 * Every change writes an audit row, and the invitation sweep writes one per expired invitation:
 * the row should cost as few index entries as it can.
 * - `audit_events_tenant_time_idx` (tenant, occurred_at, id) goes: the time window and the
 *   overview's newest events now read the position index (tenant, time to the ms in UTC, id).
 * - The target and actor indexes leave out rows without a target or actor (the system's events):
 *   a filter always names one, so no query reads those entries.
 * - New ids are time-ordered (UUID version 7, RFC 9562): the primary key grows at its right edge
 *   instead of at a random page of a ten-million-row index.
 */
export class LeanerAuditWrites1795460000001 implements MigrationInterface {
  name = 'LeanerAuditWrites1795460000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION gatehouse_uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
         SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
                  PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
                  FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
       $$`,
    );
    await queryRunner.query(`ALTER TABLE "audit_events" ALTER COLUMN "id" SET DEFAULT gatehouse_uuid_v7()`);
    await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_time_idx"`);
    for (const [name, column] of NULLABLE_KEYS) {
      await queryRunner.query(`DROP INDEX "public"."audit_events_${name}_keyset_idx"`);
      await queryRunner.query(
        `CREATE INDEX "audit_events_${name}_keyset_idx" ON "audit_events" ("tenant_id", "${column}", ${POSITION}, "id") WHERE "${column}" IS NOT NULL`,
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [name, column] of NULLABLE_KEYS) {
      await queryRunner.query(`DROP INDEX "public"."audit_events_${name}_keyset_idx"`);
      await queryRunner.query(
        `CREATE INDEX "audit_events_${name}_keyset_idx" ON "audit_events" ("tenant_id", "${column}", ${POSITION}, "id")`,
      );
    }
    await queryRunner.query(`CREATE INDEX "audit_events_tenant_time_idx" ON "audit_events" ("tenant_id", "occurred_at", "id")`);
    await queryRunner.query(`ALTER TABLE "audit_events" ALTER COLUMN "id" SET DEFAULT gen_random_uuid()`);
    await queryRunner.query(`DROP FUNCTION gatehouse_uuid_v7()`);
  }
}
