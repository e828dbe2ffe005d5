import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Data, not schema: every tenant's built-in admin API exposes the permissions of access requests
 * (Requests.Read, Requests.Decide) as scopes, as tenants created from now on get them at creation;
 * replicas drop the admin API they cached.
 */
export class RequestScopesOfAdminApi1795434909891 implements MigrationInterface {
    name = 'RequestScopesOfAdminApi1795434909891'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`INSERT INTO "api_scopes" ("tenant_id", "api_id", "value", "description")
            SELECT a."tenant_id", a."id", v.value, 'Admin: ' || v.value
              FROM "apis" a CROSS JOIN (VALUES ('Requests.Read'), ('Requests.Decide')) AS v(value)
             WHERE a."built_in"
            ON CONFLICT ("api_id", "value") DO NOTHING`);
        await queryRunner.query(`SELECT pg_notify('gatehouse_changes', 'tenant:' || "tenant_id" || ':*') FROM "apis" WHERE "built_in"`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DELETE FROM "api_scopes" s USING "apis" a
            WHERE s."api_id" = a."id" AND a."built_in" AND s."value" IN ('Requests.Read', 'Requests.Decide')`);
    }
}
