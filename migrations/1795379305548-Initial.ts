import { MigrationInterface, QueryRunner } from "typeorm";

export class Initial1795379305548 implements MigrationInterface {
    name = 'Initial1795379305548'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "tenants" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "slug" text NOT NULL, "display_name" text NOT NULL, "signing_algorithm" text NOT NULL DEFAULT 'RS256', "access_token_lifetime_seconds" integer NOT NULL DEFAULT '3599', "ext_access_token_lifetime_seconds" integer NOT NULL DEFAULT '3599', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "tenants_lifetimes_check" CHECK ("access_token_lifetime_seconds" BETWEEN 300 AND 86400 AND "ext_access_token_lifetime_seconds" >= "access_token_lifetime_seconds"), CONSTRAINT "tenants_signing_algorithm_check" CHECK ("signing_algorithm" IN ('RS256', 'ES256')), CONSTRAINT "PK_53be67a04681c66b87ee27c9321" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "tenants_slug_key" ON "tenants"  ("slug") `);
        await queryRunner.query(`CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "username" text NOT NULL, "username_normalized" text NOT NULL, "email" text NOT NULL, "display_name" text NOT NULL, "roles" text array NOT NULL DEFAULT '{}', "status" text NOT NULL DEFAULT 'active', "password_hash" text, "must_change_password" boolean NOT NULL DEFAULT false, "failed_login_count" integer NOT NULL DEFAULT '0', "locked_until" TIMESTAMP WITH TIME ZONE, "password_changed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "users_status_check" CHECK ("status" IN ('active', 'disabled')), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "users_tenant_created_idx" ON "users"  ("tenant_id", "created_at", "id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "users_tenant_username_key" ON "users"  ("tenant_id", "username_normalized") `);
        await queryRunner.query(`CREATE TABLE "apis" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "app_id" uuid NOT NULL, "identifier" text NOT NULL, "display_name" text NOT NULL, "built_in" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a74a5f3f4f08faf9f6329bceae6" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "apis_app_id_key" ON "apis"  ("app_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "apis_tenant_identifier_key" ON "apis"  ("tenant_id", "identifier") `);
        await queryRunner.query(`CREATE TABLE "api_scopes" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "api_id" uuid NOT NULL, "value" text NOT NULL, "description" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_737bae8d1c5fd5b391339c7629f" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "api_scopes_api_value_key" ON "api_scopes"  ("api_id", "value") `);
        await queryRunner.query(`CREATE TABLE "api_clients" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "client_id" uuid NOT NULL, "display_name" text NOT NULL, "owner_user_id" uuid, "contact_email" text, "state" text NOT NULL DEFAULT 'awaiting_scopes', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "api_clients_state_check" CHECK ("state" IN ('awaiting_scopes', 'active', 'disabled')), CONSTRAINT "PK_ef2d5ef0eb5e9a6ddc67cfa310e" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "api_clients_owner_idx" ON "api_clients"  ("owner_user_id") `);
        await queryRunner.query(`CREATE INDEX "api_clients_tenant_created_idx" ON "api_clients"  ("tenant_id", "created_at", "id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "api_clients_client_id_key" ON "api_clients"  ("client_id") `);
        await queryRunner.query(`CREATE TABLE "client_secrets" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "api_client_id" uuid NOT NULL, "key_id" uuid NOT NULL, "hint" text NOT NULL, "display_name" text NOT NULL DEFAULT '', "secret_hash" bytea NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "revoked_at" TIMESTAMP WITH TIME ZONE, "expiry_warned_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_528f9011d942fe4285af16c1df5" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "client_secrets_expiry_idx" ON "client_secrets"  ("expires_at") WHERE "revoked_at" IS NULL`);
        await queryRunner.query(`CREATE INDEX "client_secrets_client_idx" ON "client_secrets"  ("api_client_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "client_secrets_key_id_key" ON "client_secrets"  ("key_id") `);
        await queryRunner.query(`CREATE TABLE "client_scope_grants" ("api_client_id" uuid NOT NULL, "scope_id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_ac069d1b5d1af9e0fd121870a4d" PRIMARY KEY ("api_client_id", "scope_id"))`);
        await queryRunner.query(`CREATE INDEX "client_scope_grants_scope_idx" ON "client_scope_grants"  ("scope_id") `);
        await queryRunner.query(`CREATE TABLE "signing_keys" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "kid" text NOT NULL, "algorithm" text NOT NULL, "status" text NOT NULL, "public_jwk" jsonb NOT NULL, "private_key_encrypted" bytea NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "activated_at" TIMESTAMP WITH TIME ZONE, "retired_at" TIMESTAMP WITH TIME ZONE, "publish_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "signing_keys_algorithm_check" CHECK ("algorithm" IN ('RS256', 'ES256')), CONSTRAINT "signing_keys_status_check" CHECK ("status" IN ('next', 'active', 'retired')), CONSTRAINT "PK_ab7d78cf6e61dc3904133b4cd55" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "signing_keys_tenant_status_idx" ON "signing_keys"  ("tenant_id", "status") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "signing_keys_one_active_per_tenant" ON "signing_keys"  ("tenant_id") WHERE "status" = 'active'`);
        await queryRunner.query(`CREATE UNIQUE INDEX "signing_keys_kid_key" ON "signing_keys"  ("kid") `);
        await queryRunner.query(`CREATE TABLE "client_auth_throttles" ("tenant_id" uuid NOT NULL, "client_id" text NOT NULL, "failures" integer NOT NULL DEFAULT '0', "window_started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "blocked_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_7911225ccc2dae81209ec49a3b2" PRIMARY KEY ("tenant_id", "client_id"))`);
        await queryRunner.query(`CREATE TABLE "audit_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "occurred_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "actor_type" text NOT NULL, "actor_id" text, "actor_client_id" text, "action" text NOT NULL, "target_type" text NOT NULL, "target_id" text, "details" jsonb NOT NULL DEFAULT '{}', "request_id" text, CONSTRAINT "PK_910f64d901a5c3e9878f0d4a407" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "audit_events_tenant_actor_idx" ON "audit_events"  ("tenant_id", "actor_id") `);
        await queryRunner.query(`CREATE INDEX "audit_events_tenant_target_idx" ON "audit_events"  ("tenant_id", "target_id") `);
        await queryRunner.query(`CREATE INDEX "audit_events_tenant_action_idx" ON "audit_events"  ("tenant_id", "action") `);
        await queryRunner.query(`CREATE INDEX "audit_events_tenant_time_idx" ON "audit_events"  ("tenant_id", "occurred_at", "id") `);
        await queryRunner.query(`ALTER TABLE "users" ADD CONSTRAINT "FK_109638590074998bb72a2f2cf08" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "apis" ADD CONSTRAINT "FK_d42de3889ca4dcb93a6c2e12836" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_scopes" ADD CONSTRAINT "FK_d2fc7b4cbc5d67209bde11d7618" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_scopes" ADD CONSTRAINT "FK_5526083ffc4fad8f0b997b9d576" FOREIGN KEY ("api_id") REFERENCES "apis"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_clients" ADD CONSTRAINT "FK_2a3cf1f14bea25003fe55ac0aa9" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "api_clients" ADD CONSTRAINT "FK_ad2b0f327ab8630b04488b95adb" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "client_secrets" ADD CONSTRAINT "FK_60d4309bd788cfeb6ef2de8c3db" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "client_secrets" ADD CONSTRAINT "FK_0411b5bb170a2d4a5bf86200709" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "client_scope_grants" ADD CONSTRAINT "FK_8234865fbbfc5f3a60bc131bfae" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "client_scope_grants" ADD CONSTRAINT "FK_ef6691574d44ed968037d797604" FOREIGN KEY ("api_client_id") REFERENCES "api_clients"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "client_scope_grants" ADD CONSTRAINT "FK_61d728d3df9fc4b5f163a97315e" FOREIGN KEY ("scope_id") REFERENCES "api_scopes"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "signing_keys" ADD CONSTRAINT "FK_4743a982b7bef0a8b4fa6c7003e" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "client_auth_throttles" ADD CONSTRAINT "FK_15e64e3cb57d9087a60e605c262" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "audit_events" ADD CONSTRAINT "FK_d7ff59f708e396fd6c1656a66e9" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "audit_events" DROP CONSTRAINT "FK_d7ff59f708e396fd6c1656a66e9"`);
        await queryRunner.query(`ALTER TABLE "client_auth_throttles" DROP CONSTRAINT "FK_15e64e3cb57d9087a60e605c262"`);
        await queryRunner.query(`ALTER TABLE "signing_keys" DROP CONSTRAINT "FK_4743a982b7bef0a8b4fa6c7003e"`);
        await queryRunner.query(`ALTER TABLE "client_scope_grants" DROP CONSTRAINT "FK_61d728d3df9fc4b5f163a97315e"`);
        await queryRunner.query(`ALTER TABLE "client_scope_grants" DROP CONSTRAINT "FK_ef6691574d44ed968037d797604"`);
        await queryRunner.query(`ALTER TABLE "client_scope_grants" DROP CONSTRAINT "FK_8234865fbbfc5f3a60bc131bfae"`);
        await queryRunner.query(`ALTER TABLE "client_secrets" DROP CONSTRAINT "FK_0411b5bb170a2d4a5bf86200709"`);
        await queryRunner.query(`ALTER TABLE "client_secrets" DROP CONSTRAINT "FK_60d4309bd788cfeb6ef2de8c3db"`);
        await queryRunner.query(`ALTER TABLE "api_clients" DROP CONSTRAINT "FK_ad2b0f327ab8630b04488b95adb"`);
        await queryRunner.query(`ALTER TABLE "api_clients" DROP CONSTRAINT "FK_2a3cf1f14bea25003fe55ac0aa9"`);
        await queryRunner.query(`ALTER TABLE "api_scopes" DROP CONSTRAINT "FK_5526083ffc4fad8f0b997b9d576"`);
        await queryRunner.query(`ALTER TABLE "api_scopes" DROP CONSTRAINT "FK_d2fc7b4cbc5d67209bde11d7618"`);
        await queryRunner.query(`ALTER TABLE "apis" DROP CONSTRAINT "FK_d42de3889ca4dcb93a6c2e12836"`);
        await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "FK_109638590074998bb72a2f2cf08"`);
        await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_time_idx"`);
        await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_action_idx"`);
        await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_target_idx"`);
        await queryRunner.query(`DROP INDEX "public"."audit_events_tenant_actor_idx"`);
        await queryRunner.query(`DROP TABLE "audit_events"`);
        await queryRunner.query(`DROP TABLE "client_auth_throttles"`);
        await queryRunner.query(`DROP INDEX "public"."signing_keys_kid_key"`);
        await queryRunner.query(`DROP INDEX "public"."signing_keys_one_active_per_tenant"`);
        await queryRunner.query(`DROP INDEX "public"."signing_keys_tenant_status_idx"`);
        await queryRunner.query(`DROP TABLE "signing_keys"`);
        await queryRunner.query(`DROP INDEX "public"."client_scope_grants_scope_idx"`);
        await queryRunner.query(`DROP TABLE "client_scope_grants"`);
        await queryRunner.query(`DROP INDEX "public"."client_secrets_key_id_key"`);
        await queryRunner.query(`DROP INDEX "public"."client_secrets_client_idx"`);
        await queryRunner.query(`DROP INDEX "public"."client_secrets_expiry_idx"`);
        await queryRunner.query(`DROP TABLE "client_secrets"`);
        await queryRunner.query(`DROP INDEX "public"."api_clients_client_id_key"`);
        await queryRunner.query(`DROP INDEX "public"."api_clients_tenant_created_idx"`);
        await queryRunner.query(`DROP INDEX "public"."api_clients_owner_idx"`);
        await queryRunner.query(`DROP TABLE "api_clients"`);
        await queryRunner.query(`DROP INDEX "public"."api_scopes_api_value_key"`);
        await queryRunner.query(`DROP TABLE "api_scopes"`);
        await queryRunner.query(`DROP INDEX "public"."apis_tenant_identifier_key"`);
        await queryRunner.query(`DROP INDEX "public"."apis_app_id_key"`);
        await queryRunner.query(`DROP TABLE "apis"`);
        await queryRunner.query(`DROP INDEX "public"."users_tenant_username_key"`);
        await queryRunner.query(`DROP INDEX "public"."users_tenant_created_idx"`);
        await queryRunner.query(`DROP TABLE "users"`);
        await queryRunner.query(`DROP INDEX "public"."tenants_slug_key"`);
        await queryRunner.query(`DROP TABLE "tenants"`);
    }

}
