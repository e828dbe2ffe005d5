import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit events keep their tenant's id without a foreign key, as an append-only log of what
 * happened (Keycloak's admin events keep their realm's id the same way). Every event is written
 * with the tenant its request or job resolved, so the key only cost a lookup and a lock of the
 * tenant's row per event: the expiry sweep of a million overdue invitations among ten million
 * spent a quarter of its time there (17.9 → 13.3–14.0 s; BENCHMARKS.md, "The sweep beside token traffic: the database core it takes").
 * Tenants are never deleted, so its cascade never ran.
 */
export class AuditEventsWithoutTenantKey1795500000000 implements MigrationInterface {
  name = 'AuditEventsWithoutTenantKey1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "FK_d7ff59f708e396fd6c1656a66e9"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD CONSTRAINT "FK_d7ff59f708e396fd6c1656a66e9" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
