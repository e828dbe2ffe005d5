import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Who created each client, so that giving its owner a first role revokes the credentials of the
 * clients made in their name by someone else (SECURITY 55). Existing clients take their creator
 * from the audit log's `client.created` event; where none names a person the creator stays
 * unknown, which counts as "not the owner" — the safe side.
 */
export class ClientCreators1795842284709 implements MigrationInterface {
    name = 'ClientCreators1795842284709'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "api_clients" ADD "created_by_user_id" uuid`);
        await queryRunner.query(`ALTER TABLE "api_clients" ADD CONSTRAINT "FK_f9a129a2a8d733c4ccff14b7eb0" FOREIGN KEY ("created_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`UPDATE "api_clients" c SET "created_by_user_id" = u."id"
            FROM "audit_events" a JOIN "users" u ON u."id"::text = a."actor_id"
            WHERE a."action" = 'client.created' AND a."actor_type" = 'user' AND a."target_type" = 'client'
              AND a."target_id" = c."client_id"::text AND a."tenant_id" = c."tenant_id" AND u."tenant_id" = c."tenant_id"`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "api_clients" DROP CONSTRAINT "FK_f9a129a2a8d733c4ccff14b7eb0"`);
        await queryRunner.query(`ALTER TABLE "api_clients" DROP COLUMN "created_by_user_id"`);
    }

}
