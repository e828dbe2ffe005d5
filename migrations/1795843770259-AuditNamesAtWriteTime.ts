import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit events keep who acted and what they acted on as those were named at the time: the actor's
 * display name and username, the target's name. Before, the log showed the actor's current name,
 * which a contact person could change for themselves or a peer ("System"), relabelling every past
 * event. Events written before this migration get the names as they are now, once, set-based
 * (the best that is known of them); from here on every event is written with its names.
 */
export class AuditNamesAtWriteTime1795843770259 implements MigrationInterface {
  name = 'AuditNamesAtWriteTime1795843770259';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "actor_name" text`);
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "actor_username" text`);
    await queryRunner.query(`ALTER TABLE "audit_events" ADD "target_name" text`);
    const uuid = `'^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'`;
    await queryRunner.query(
      `UPDATE "audit_events" e SET "actor_name" = u."display_name", "actor_username" = u."username"
         FROM "users" u
        WHERE e."actor_type" = 'user' AND e."actor_id" ~ ${uuid} AND u."id" = e."actor_id"::uuid AND u."tenant_id" = e."tenant_id"`,
    );
    await queryRunner.query(
      `UPDATE "audit_events" e SET "actor_name" = c."display_name"
         FROM "api_clients" c
        WHERE e."actor_type" = 'client' AND e."actor_client_id" ~ ${uuid} AND c."client_id" = e."actor_client_id"::uuid AND c."tenant_id" = e."tenant_id"`,
    );
    for (const [type, table, name, key] of [
      ['user', 'users', 'display_name', 'id'],
      ['client', 'api_clients', 'display_name', 'client_id'],
      ['api', 'apis', 'display_name', 'id'],
      ['doc_section', 'doc_sections', 'title', 'id'],
      ['access_request', 'access_requests', 'requester_name', 'id'],
    ]) {
      await queryRunner.query(
        `UPDATE "audit_events" e SET "target_name" = t."${name}" FROM "${table}" t
          WHERE e."target_type" = '${type}' AND e."target_id" ~ ${uuid} AND t."${key}" = e."target_id"::uuid AND t."tenant_id" = e."tenant_id"`,
      );
    }
    await queryRunner.query(
      `UPDATE "audit_events" e SET "target_name" = t."display_name" FROM "tenants" t
        WHERE e."target_type" = 'tenant' AND e."target_id" ~ ${uuid} AND t."id" = e."target_id"::uuid`,
    );
    await queryRunner.query(
      `UPDATE "audit_events" e SET "target_name" = u."display_name" FROM "invitations" i JOIN "users" u ON u."id" = i."user_id"
        WHERE e."target_type" = 'invitation' AND e."target_id" ~ ${uuid} AND i."id" = e."target_id"::uuid AND i."tenant_id" = e."tenant_id"`,
    );
    await queryRunner.query(
      `UPDATE "audit_events" e SET "target_name" = m."to_address" FROM "emails" m
        WHERE e."target_type" = 'email' AND e."target_id" ~ ${uuid} AND m."id" = e."target_id"::uuid AND m."tenant_id" = e."tenant_id"`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "target_name"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "actor_username"`);
    await queryRunner.query(`ALTER TABLE "audit_events" DROP COLUMN "actor_name"`);
  }
}
