import { MigrationInterface, QueryRunner } from "typeorm";

export class InvitationLinkHistory1795435068561 implements MigrationInterface {
    name = 'InvitationLinkHistory1795435068561'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "superseded_invitation_links" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "invitation_id" uuid NOT NULL, "token_hash" bytea NOT NULL, "superseded_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_dc05a65a9cda5745d9407ecbcc5" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "superseded_invitation_links_invitation_idx" ON "superseded_invitation_links"  ("invitation_id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "superseded_invitation_links_token_hash_key" ON "superseded_invitation_links"  ("token_hash") `);
        await queryRunner.query(`ALTER TABLE "invitations" ADD "link_sent_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()`);
        // Rows from before: the time their current link was sent is unknown; creation is the safe guess
        // (a link can set a password only within 24 hours of being sent, so older ones never will).
        await queryRunner.query(`UPDATE "invitations" SET "link_sent_at" = "created_at"`);
        await queryRunner.query(`ALTER TABLE "superseded_invitation_links" ADD CONSTRAINT "FK_53133716d37f36e0a71c592360d" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "superseded_invitation_links" ADD CONSTRAINT "FK_ce4930bfed883afdee9dda3adee" FOREIGN KEY ("invitation_id") REFERENCES "invitations"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "superseded_invitation_links" DROP CONSTRAINT "FK_ce4930bfed883afdee9dda3adee"`);
        await queryRunner.query(`ALTER TABLE "superseded_invitation_links" DROP CONSTRAINT "FK_53133716d37f36e0a71c592360d"`);
        await queryRunner.query(`ALTER TABLE "invitations" DROP COLUMN "link_sent_at"`);
        await queryRunner.query(`DROP INDEX "public"."superseded_invitation_links_token_hash_key"`);
        await queryRunner.query(`DROP INDEX "public"."superseded_invitation_links_invitation_idx"`);
        await queryRunner.query(`DROP TABLE "superseded_invitation_links"`);
    }

}
