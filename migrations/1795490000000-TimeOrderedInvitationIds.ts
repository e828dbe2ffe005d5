import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * New invitations get time-ordered ids (UUID version 7, as audit events already do). The expiry
 * sweep audits invitations in expiry order, and each `invitation.expired` event names its
 * invitation in the audit table's target index: with random ids every event landed on a random
 * leaf of that index (at ten million events, a block read and a full-page image a row). Links of
 * one lifetime expire in the order they were created, so their ids now arrive nearly in order.
 * Existing ids stay as they are.
 */
export class TimeOrderedInvitationIds1795490000000 implements MigrationInterface {
  name = 'TimeOrderedInvitationIds1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invitations" ALTER COLUMN "id" SET DEFAULT gatehouse_uuid_v7()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "invitations" ALTER COLUMN "id" SET DEFAULT gen_random_uuid()`);
  }
}
