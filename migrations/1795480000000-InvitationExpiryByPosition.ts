import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The expiry sweep no longer rewrites the invitations it expires. Setting `status` to `expired`
 * could not be a HOT update (the sweep's own index is partial on the status), so each expired
 * invitation wrote a new row version and an entry into each of its four indexes — at ten million
 * invitations most of the sweep's time. An invitation past its expiry already reads, lists and is
 * refused as expired whatever its stored status (its stored status records what people did:
 * pending, accepted, revoked; rows expired by the earlier sweep keep `expired`). The sweep now
 * audits each overdue invitation once, in the order (expiry, id), and keeps how far it has come in
 * a one-row table; the partial index gets `id` for that order.
 */
export class InvitationExpiryByPosition1795480000000 implements MigrationInterface {
  name = 'InvitationExpiryByPosition1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "invitation_sweep_position" ("id" smallint NOT NULL DEFAULT 1, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "invitation_id" uuid NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "invitation_sweep_position_single_row" CHECK ("id" = 1), CONSTRAINT "PK_invitation_sweep_position" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "invitation_sweep_position" ("id", "expires_at", "invitation_id") VALUES (1, '-infinity', '00000000-0000-0000-0000-000000000000')`,
    );
    await queryRunner.query(`DROP INDEX "public"."invitations_pending_expiry_idx"`);
    await queryRunner.query(
      `CREATE INDEX "invitations_pending_expiry_idx" ON "invitations" ("expires_at", "id") WHERE "status" = 'pending'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // What the position says was swept becomes `expired` again, as the earlier sweep left it.
    await queryRunner.query(
      `UPDATE "invitations" i SET "status" = 'expired', "updated_at" = now() FROM "invitation_sweep_position" p
        WHERE i."status" = 'pending' AND (i."expires_at", i."id") <= (p."expires_at", p."invitation_id")`,
    );
    await queryRunner.query(`DROP INDEX "public"."invitations_pending_expiry_idx"`);
    await queryRunner.query(`CREATE INDEX "invitations_pending_expiry_idx" ON "invitations" ("expires_at") WHERE "status" = 'pending'`);
    await queryRunner.query(`DROP TABLE "invitation_sweep_position"`);
  }
}
