import { MigrationInterface, QueryRunner } from "typeorm";

/**
 * Stale credentials disabled (the tenant's `disableStaleCredentials`), reversibly: when a secret,
 * certificate or federated credential was disabled, and when it was last enabled again (its stale
 * period counts afresh from then). Null in both: as before.
 */
export class DisabledCredentials1795860000000 implements MigrationInterface {
    name = 'DisabledCredentials1795860000000'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "client_secrets" ADD "disabled_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_secrets" ADD "enabled_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_certificates" ADD "disabled_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_certificates" ADD "enabled_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" ADD "disabled_at" TIMESTAMP WITH TIME ZONE`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" ADD "enabled_at" TIMESTAMP WITH TIME ZONE`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" DROP COLUMN "enabled_at"`);
        await queryRunner.query(`ALTER TABLE "client_federated_credentials" DROP COLUMN "disabled_at"`);
        await queryRunner.query(`ALTER TABLE "client_certificates" DROP COLUMN "enabled_at"`);
        await queryRunner.query(`ALTER TABLE "client_certificates" DROP COLUMN "disabled_at"`);
        await queryRunner.query(`ALTER TABLE "client_secrets" DROP COLUMN "enabled_at"`);
        await queryRunner.query(`ALTER TABLE "client_secrets" DROP COLUMN "disabled_at"`);
    }
}
