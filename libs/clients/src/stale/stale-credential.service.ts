import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditService, SYSTEM_ACTOR } from '@gatehouse/audit';
import { announceChange } from '@gatehouse/database';
import { MailOutbox, isSingleAddress, staleCredentialEmail } from '@gatehouse/mail';
import type { CredentialKindName } from '../credential-report/credential-report.view.js';
import { type StaleSettings, StaleSettingsSource } from './stale-settings.js';

interface StaleRow {
  tenant_id: string;
  key_id: string;
  identifying: string;
  last_used_at: Date | null;
  client_id: string;
  client_name: string;
  contact_email: string | null;
  creator_email: string | null;
  /** Reported in an earlier run (before disabling was on): this run only disables it. */
  reported_before: boolean;
}

/** When a credential's stale period starts: its last use (or creation), or its last enabling if later. */
export const STALE_SINCE = 'GREATEST(COALESCE(k.last_used_at, k.created_at), k.enabled_at)';

export interface StaleRun {
  reported: number;
  disabled: number;
  mailed: number;
}

/** Each kind's table, what is still usable of it, and how a mail names one. */
const KINDS: Record<CredentialKindName, { table: string; usable: string; keyId: string; identifying: string; label: string }> = {
  secret: {
    table: 'client_secrets',
    usable: 'k.revoked_at IS NULL AND k.expires_at > now()',
    keyId: 'k.key_id',
    identifying: `'starting with ' || k.hint`,
    label: 'client secret',
  },
  certificate: {
    table: 'client_certificates',
    usable: 'k.not_after > now()',
    keyId: 'k.key_id',
    identifying: `'thumbprint ' || k.thumbprint`,
    label: 'certificate',
  },
  federated: {
    table: 'client_federated_credentials',
    usable: 'true',
    keyId: 'k.id',
    identifying: `'issuer ' || k.issuer || ', subject ' || COALESCE(k.subject, k.claims_expression)`,
    label: 'federated credential',
  },
};

/**
 * Stale credentials (§12): a usable credential of an enabled client that no token was issued with
 * for the tenant's `staleCredentialDays` (never used: counted from its creation; enabled again:
 * from then) is reported once — marked, one mail to the client's contact and one to the contact
 * person who created the client (through the outbox), and the audit event `client.credential.stale`
 * — in one transaction per bounded batch (SKIP LOCKED: safe on several workers). A later use clears
 * the mark (the flush of last use), so a credential that goes unused again is reported again.
 *
 * With the tenant's `disableStaleCredentials` on, the same run disables it too (`disabled_at`, so
 * {@link CredentialEnablingService} can undo it): audited as `client.credential.disabled`, the mail
 * says so and how to undo it, and the client's change is announced so that every identity replica
 * drops its cached credentials at commit. A credential reported before disabling was turned on is
 * disabled (and mailed) at the next run.
 */
@Injectable()
export class StaleCredentialService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: StaleSettingsSource,
    private readonly outbox: MailOutbox,
    private readonly audit: AuditService,
  ) {}

  async reportStale(batchSize = 500, maxBatches = 100): Promise<StaleRun> {
    const total: StaleRun = { reported: 0, disabled: 0, mailed: 0 };
    const tenants: Array<{ id: string }> = await this.dataSource.query(`SELECT id FROM tenants ORDER BY id`);
    for (const { id: tenantId } of tenants) {
      const settings = await this.settings.forTenant(tenantId);
      for (const kind of Object.keys(KINDS) as CredentialKindName[]) {
        for (let i = 0; i < maxBatches; i++) {
          const batch = await this.dataSource.transaction((em) => this.reportBatch(em, tenantId, kind, settings, batchSize));
          total.reported += batch.reported;
          total.disabled += batch.disabled;
          total.mailed += batch.mailed;
          if (batch.rows < batchSize) break;
        }
      }
    }
    return total;
  }

  private async reportBatch(
    em: EntityManager,
    tenantId: string,
    kind: CredentialKindName,
    { staleCredentialDays: days, disableStaleCredentials: disable }: StaleSettings,
    limit: number,
  ): Promise<StaleRun & { rows: number }> {
    const spec = KINDS[kind];
    const rows: StaleRow[] = await em.query(
      `WITH due AS (SELECT k.id, k.stale_reported_at IS NOT NULL AS reported_before
                      FROM ${spec.table} k JOIN api_clients c ON c.id = k.api_client_id AND c.state <> 'disabled'
                     WHERE k.tenant_id = $1 AND k.disabled_at IS NULL AND ${spec.usable}
                       AND (k.stale_reported_at IS NULL OR $4::boolean)
                       AND ${STALE_SINCE} < now() - make_interval(days => $2)
                     ORDER BY k.id LIMIT $3 FOR UPDATE OF k SKIP LOCKED),
            marked AS (UPDATE ${spec.table} k
                          SET stale_reported_at = COALESCE(k.stale_reported_at, now()),
                              disabled_at = CASE WHEN $4::boolean THEN now() END
                         FROM due WHERE k.id = due.id
                       RETURNING k.tenant_id, ${spec.keyId} AS key_id, ${spec.identifying} AS identifying, k.last_used_at, k.api_client_id,
                                 due.reported_before)
       SELECT m.tenant_id, m.key_id, m.identifying, m.last_used_at, m.reported_before, c.client_id, c.display_name AS client_name,
              c.contact_email, u.email AS creator_email
         FROM marked m JOIN api_clients c ON c.id = m.api_client_id
         LEFT JOIN users u ON u.id = c.created_by_user_id AND u.tenant_id = c.tenant_id AND u.status = 'active'`,
      [tenantId, days, limit, disable],
    );
    const run = { rows: rows.length, reported: 0, disabled: 0, mailed: 0 };
    for (const row of rows) {
      const to = [...new Set([row.contact_email, row.creator_email].filter(isSingleAddress))];
      const mail = staleCredentialEmail({
        clientDisplayName: row.client_name,
        clientId: row.client_id,
        kindLabel: spec.label,
        identifying: row.identifying,
        days,
        lastUsedAt: row.last_used_at,
        disabled: disable,
      });
      await this.outbox.enqueueMany(em, to.map((address) => ({ tenantId, to: address, mail })));
      run.mailed += to.length;
      const details = { kind, keyId: row.key_id, lastUsedAt: row.last_used_at?.toISOString() ?? null, unusedDays: days, mailed: to.length };
      if (!row.reported_before) {
        run.reported++;
        await this.record(em, tenantId, 'client.credential.stale', row.client_id, { ...details, disabled: disable });
      }
      if (disable) {
        run.disabled++;
        await this.record(em, tenantId, 'client.credential.disabled', row.client_id, { ...details, reason: 'stale' });
      }
    }
    if (disable) for (const clientId of new Set(rows.map((row) => row.client_id))) await announceChange(em, 'client', tenantId, clientId);
    return run;
  }

  private record(em: EntityManager, tenantId: string, action: string, clientId: string, details: Record<string, unknown>): Promise<unknown> {
    return this.audit.record(em, { tenantId, actor: SYSTEM_ACTOR, action, targetType: 'client', targetId: clientId, details });
  }
}
