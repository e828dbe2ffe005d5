import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Filter entries of a subscription `s` that take the audit action of `e`: exact, `prefix.*`, or `*`. */
const TAKES = `EXISTS (SELECT 1 FROM unnest(s.events) f
                  WHERE f = e.action OR f = '*' OR (right(f, 2) = '.*' AND starts_with(e.action, left(f, -1))))`;

/**
 * Events out (§13).
 * - Webhook subscriptions and their deliveries (the webhooks' outbox rows).
 * - A statement trigger on audit_events writes the deliveries in the transaction of the change:
 *   one INSERT … SELECT per audit statement over the tenant's matching subscriptions (the
 *   set-based audit inserts of sweeps included); a tenant without subscriptions pays one probe of
 *   an index that holds none of its rows. `webhook.tested` goes only to the subscription tested
 *   (the service queues it).
 * - gatehouse_transaction_id(): the writing transaction (xid8, never wraps). Deliveries and the
 *   audit stream are read in (transaction, insertion) order, only from transactions that have all
 *   ended, so a row committed late never lands behind one already sent.
 * - audit_events.transaction_id is added without a default first, so the table is not rewritten
 *   (older events keep NULL and are never streamed); new rows get it from the default. A BRIN
 *   index, not a B-tree, serves the stream's read of the log's tail: an append-only table fills
 *   it in order, and a new row costs no index entry until its block range is summarised.
 */
export class WebhooksAndAuditStreaming1795842668452 implements MigrationInterface {
  name = 'WebhooksAndAuditStreaming1795842668452';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION gatehouse_transaction_id() RETURNS bigint LANGUAGE sql VOLATILE AS $$ SELECT (pg_current_xact_id()::text)::bigint $$`,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_subscriptions" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "url" text NOT NULL, "events" text array NOT NULL, "description" text, "state" text NOT NULL DEFAULT 'active', "state_reason" text, "secret_sealed" bytea NOT NULL, "previous_secret_sealed" bytea, "previous_secret_until" TIMESTAMP WITH TIME ZONE, "claimed_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_subscriptions_state_check" CHECK ("state" IN ('active', 'failing', 'disabled')), CONSTRAINT "PK_bf631ae77d39849d599817fb6f4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_subscriptions_tenant_idx" ON "webhook_subscriptions"  ("tenant_id", "created_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL DEFAULT gatehouse_uuid_v7(), "tenant_id" uuid NOT NULL, "subscription_id" uuid NOT NULL, "event_id" uuid NOT NULL, "event_type" text NOT NULL, "transaction_id" bigint NOT NULL DEFAULT gatehouse_transaction_id(), "seq" BIGSERIAL NOT NULL, "state" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_attempt_at" TIMESTAMP WITH TIME ZONE, "last_status_code" integer, "last_error" text, "delivered_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "webhook_deliveries_state_check" CHECK ("state" IN ('pending', 'delivered', 'failed')), CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_log_idx" ON "webhook_deliveries"  ("subscription_id", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries"  ("subscription_id", "transaction_id", "seq") WHERE "state" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE TABLE "audit_stream_cursors" ("sink" text NOT NULL, "transaction_id" bigint NOT NULL, "event_id" uuid NOT NULL, "claimed_until" TIMESTAMP WITH TIME ZONE, "sent" bigint NOT NULL DEFAULT '0', "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_7da418db269ea41afc57a3aba3e" PRIMARY KEY ("sink"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_events" ADD "transaction_id" bigint`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_events" ALTER COLUMN "transaction_id" SET DEFAULT gatehouse_transaction_id()`,
    );
    await queryRunner.query(
      `CREATE INDEX "audit_events_transaction_brin_idx" ON "audit_events" USING brin ("transaction_id") WITH (pages_per_range = 16, autosummarize = on)`,
    );
    await queryRunner.query(
      `CREATE FUNCTION gatehouse_webhook_fanout() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO webhook_deliveries (tenant_id, subscription_id, event_id, event_type)
         SELECT e.tenant_id, s.id, e.id, e.action
           FROM new_events e
           JOIN webhook_subscriptions s ON s.tenant_id = e.tenant_id AND s.state <> 'disabled'
          WHERE e.action <> 'webhook.tested' AND ${TAKES}
          ORDER BY e.id;
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "audit_events_webhook_fanout" AFTER INSERT ON "audit_events"
       REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION gatehouse_webhook_fanout()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TRIGGER "audit_events_webhook_fanout" ON "audit_events"`,
    );
    await queryRunner.query(
      `DROP FUNCTION gatehouse_webhook_fanout()`,
    );
    await queryRunner.query(
      `DROP INDEX "public"."audit_events_transaction_brin_idx"`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_events" DROP COLUMN "transaction_id"`,
    );
    await queryRunner.query(
      `DROP TABLE "audit_stream_cursors"`,
    );
    await queryRunner.query(
      `DROP INDEX "public"."webhook_deliveries_pending_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "public"."webhook_deliveries_log_idx"`,
    );
    await queryRunner.query(
      `DROP TABLE "webhook_deliveries"`,
    );
    await queryRunner.query(
      `DROP INDEX "public"."webhook_subscriptions_tenant_idx"`,
    );
    await queryRunner.query(
      `DROP TABLE "webhook_subscriptions"`,
    );
    await queryRunner.query(
      `DROP FUNCTION gatehouse_transaction_id()`,
    );
  }
}
